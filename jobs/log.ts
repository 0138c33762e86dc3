// Where the pipeline's words go: on a terminal, one progress line rewritten in place and short messages;
// otherwise (cron, systemd, CI) one JSON object per line on stderr.
import type { Logger } from "../src/model/logger.js";

export function createLogger(stream: NodeJS.WriteStream = process.stderr, quiet = false): Logger {
  if (stream.isTTY) return terminalLogger(stream, quiet);
  return jsonLogger(stream, quiet);
}

function jsonLogger(stream: NodeJS.WritableStream, quiet: boolean): Logger {
  const write = (level: string, msg: string, fields?: Record<string, unknown>) =>
    stream.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  let lastStage = "";
  return {
    info: (msg, fields) => quiet || write("info", msg, fields),
    warn: (msg, fields) => write("warn", msg, fields),
    progress(stage, done, total) {
      // one line per stage, and the last step of counted ones: logs stay short
      if (quiet || (stage === lastStage && done !== total)) return;
      lastStage = stage;
      write("info", "progress", { stage, done, ...(total === undefined ? {} : { total }) });
    },
  };
}

function terminalLogger(stream: NodeJS.WriteStream, quiet: boolean): Logger {
  let open = false;
  const clear = () => {
    if (open) stream.write("\r\x1b[K");
    open = false;
  };
  return {
    info(msg, fields) {
      if (quiet) return;
      clear();
      stream.write(`${msg}${fields ? ` ${summary(fields)}` : ""}\n`);
    },
    warn(msg, fields) {
      clear();
      stream.write(`warning: ${msg}${fields ? ` ${summary(fields)}` : ""}\n`);
    },
    progress(stage, done, total) {
      if (quiet) return;
      stream.write(`\r\x1b[K${stage} ${total ? `${done}/${total}` : ""}`);
      open = true;
      if (total !== undefined && done >= total) clear();
    },
  };
}

function summary(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
}
