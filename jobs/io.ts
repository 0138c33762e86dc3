// What a command may touch of the process, passed in so that tests run commands in-process.
export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  /** Standard input as a stream (read it once). */
  stdinStream: () => NodeJS.ReadableStream;
  /** The clock, epoch milliseconds. */
  now: () => number;
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdinStream: () => process.stdin,
    now: () => Date.now(),
  };
}

/** The whole of standard input. */
export async function readStdin(io: Io): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of io.stdinStream()) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks);
}
