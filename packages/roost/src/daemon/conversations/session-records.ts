/** The session-record format of each program whose own records roost reads. */
import type { ConversationProgram } from "../../protocol/index.js";
import { claudeCodeRecord } from "./claude-code-record.js";
import { codexRecord } from "./codex-record.js";
import type { SessionRecordFormat } from "./session-record.js";

export const SESSION_RECORDS: Record<ConversationProgram, SessionRecordFormat> = {
  claude: claudeCodeRecord,
  codex: codexRecord,
};
