/**
 * Worker-thread entry of the simulator benchmark: runs one load generator with the options in workerData and
 * posts its tally back. Several of these run at once because one thread cannot verify the answers as fast
 * as the simulator sends them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runLoad, type LoadOptions } from './sim-load.js';

const tally = await runLoad(workerData as LoadOptions);
parentPort?.postMessage(tally, [tally.latencies.buffer]);
