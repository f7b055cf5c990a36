/**
 * Loaded into every test file's process (the test commands pass it with --import). The test
 * runner ends a file that runs past its timeout with SIGTERM, and Node's default for SIGTERM ends
 * the process without running its 'exit' handlers. Those handlers are what end the daemons,
 * servers and agents a test started; one left alive keeps the runner's output pipe open, and the
 * runner then never exits. Here SIGTERM is an exit, so the handlers run.
 */
process.once("SIGTERM", () => process.exit(143));
