// What a command may touch of the process, passed in so that tests run commands in-process.
export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  stdin: () => Promise<Buffer>;
  /** The clock, epoch milliseconds. */
  now: () => number;
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    },
    now: () => Date.now(),
  };
}
