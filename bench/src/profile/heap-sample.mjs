// Preloaded into a server process by server.ts (HEAP=<file>): samples allocations, collected
// objects included (what GC has to clear), from 1.5 s after start to exit, into $HEAP.
import fs from 'node:fs';
import inspector from 'node:inspector';

const session = new inspector.Session();
session.connect();
setTimeout(() => session.post('HeapProfiler.startSampling', { samplingInterval: 2048, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }), 1500).unref();
process.on('exit', () => {
  session.post('HeapProfiler.stopSampling', (err, result) => {
    if (result !== undefined) fs.writeFileSync(process.env.HEAP, JSON.stringify(result.profile));
    else console.error('no allocation profile:', err);
  });
});
