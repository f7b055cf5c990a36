/**
 * Loaded into every test file's process (the test commands pass it with --import, by an absolute
 * path, since processes a test starts with its own flags inherit it from other folders). The test
 * runner ends a file that runs past its timeout with SIGTERM, and Node's default for SIGTERM ends
 * the process without running its 'exit' handlers. Those handlers are what end the daemons,
 * servers and agents a test started; one left alive keeps the runner's output pipe open, and the
 * runner then never exits. In a test file's process SIGTERM is an exit, so the handlers run; any
 * other process that inherits the flag keeps its own handling of SIGTERM.
 */
if (/\.test\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) process.once("SIGTERM", () => process.exit(143));
