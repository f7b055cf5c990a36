import { addUsage } from "../engine/usage-totals.js";
import type { Receipt, Usage } from "../protocol/index.js";

/**
 * What an agent spent that no accepted command has reported yet. The server counts a command's
 * usage once, when it accepts the command, so what went into a try that was refused, came too
 * late or was never sent rides on the next command instead.
 */
export class UnreportedUsage {
  private pending: Usage | undefined;

  add(usage: Usage | undefined): void {
    this.pending = addUsage(this.pending, usage);
  }

  /**
   * Sends a command carrying all of it; unless the server accepted the command (now or before:
   * a duplicate), what it carried waits for the next.
   */
  async carry(send: (usage: Usage | undefined) => Promise<Receipt>): Promise<Receipt> {
    const carried = this.pending;
    this.pending = undefined;
    const receipt = await send(carried);
    if (receipt.status !== "accepted" && receipt.status !== "duplicate") this.add(carried);
    return receipt;
  }
}
