import { ProcessTerminal } from "@mariozechner/pi-tui";

/**
 * The process's terminal on the alternate screen: the hub draws a full screen of its own and, on
 * exit (or while another program is attached), the user's shell screen comes back as it was.
 */
export class AlternateScreenTerminal extends ProcessTerminal {
  override start(onInput: (data: string) => void, onResize: () => void): void {
    process.stdout.write("\x1b[?1049h\x1b[H\x1b[2J");
    super.start(onInput, onResize);
  }

  override stop(): void {
    super.stop();
    // Leave the alternate screen, show the cursor and reset styles, whatever was drawn last.
    process.stdout.write("\x1b[0m\x1b[?25h\x1b[?1049l");
  }
}
