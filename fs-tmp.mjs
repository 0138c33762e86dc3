import { mkdir, writeFile, rename, rm, unlink } from "node:fs/promises";
import PQueue from "p-queue";
for (const conc of [1, 4, 16]) {
  await rm("/tmp/fsb", { recursive: true, force: true }); await mkdir("/tmp/fsb/a", { recursive: true });
  const q = new PQueue({ concurrency: conc }); const t = performance.now();
  await Promise.all(Array.from({ length: 20000 }, (_, i) => q.add(async () => { const f = `/tmp/fsb/a/${i}.json`; await mkdir("/tmp/fsb/a", { recursive: true }); await writeFile(f + ".tmp", "x".repeat(300)); await rename(f + ".tmp", f); })));
  const w = performance.now() - t; const t2 = performance.now();
  await Promise.all(Array.from({ length: 20000 }, (_, i) => q.add(() => unlink(`/tmp/fsb/a/${i}.json`))));
  console.log({ conc, writeMsPerFile: (w / 20000).toFixed(3), unlinkMs: ((performance.now() - t2) / 20000).toFixed(3) });
}
