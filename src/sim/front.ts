import { Worker } from 'node:worker_threads';

/**
 * The simulator's front door: a worker thread that takes every request in, stamps the time it arrived, and
 * passes it on to the simulator (header ARRIVAL_HEADER), which counts its rate limits at that time.
 *
 * Why: a strict server counts a request when it arrives. The simulator counts it when its event loop gets to it,
 * and with many accounts its heap is large (1.3 GB for 100): a full collection holds the loop for 0.35 s and more,
 * and requests that arrived meanwhile would be counted together when it ends (docs/performance.md, "Many
 * accounts"). The worker has a heap and an event loop of its own, nearly empty, so its stamps stay within a
 * millisecond or two of the arrival. Faults pass through: a connection the simulator drops is dropped, a body it
 * cuts is cut, a request it stalls stalls. Where the system allows it, the front's thread runs at a higher priority
 * than the rest (FRONT_PRIORITY), so that its stamps do not wait for a core either.
 */
export const ARRIVAL_HEADER = 'x-sim-arrival';
/** The address the request came from, which the per-IP cap counts. */
export const REMOTE_HEADER = 'x-sim-remote';

/**
 * The niceness the front's thread asks for (-20 highest, 0 the default). With the front at the default, 100 accounts'
 * extraction on 2 cores still drew 5 429s in 30,869 requests: the front's own stamps came 100 to 305 ms late at times
 * (docs/performance.md, "Many accounts").
 */
export const FRONT_PRIORITY = -10;

// Plain JavaScript, run by the worker with `eval`: it needs nothing of the package, and so works from src/ under
// the tests as from dist/.
const WORKER_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
// This thread first on the CPU, where the system allows it (Linux, as root or with CAP_SYS_NICE; else it stays as it
// is): on a machine the client shares, a stamp waits for a core as long as the client's threads hold both, and the
// simulator would count arrivals late, as no server on a machine of its own would.
try {
  require('node:os').setPriority(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()), ${FRONT_PRIORITY});
} catch {}
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
const sockets = new Set();
const server = http.createServer({ keepAliveTimeout: 65000 }, (req, res) => {
  const arrival = Date.now();
  const headers = { ...req.headers, '${ARRIVAL_HEADER}': String(arrival), '${REMOTE_HEADER}': req.socket.remoteAddress || '' };
  const up = http.request({ host: workerData.targetHost, port: workerData.targetPort, method: req.method, path: req.url, headers, agent }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers);
    answer.pipe(res);
    answer.on('aborted', () => res.destroy());
    answer.on('error', () => res.destroy());
  });
  up.on('error', () => res.destroy());
  req.pipe(up);
});
server.on('connection', (socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
server.on('clientError', (_e, socket) => socket.destroy());
server.listen(workerData.port, workerData.host, () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => {
  server.close(() => parentPort.postMessage({ closed: true }));
  for (const socket of sockets) socket.destroy();
  agent.destroy();
});
`;

export interface Front {
  port: number;
  close(): Promise<void>;
}

/** Starts the front on `host:port` (0: a free port), passing every request on to the simulator at `target`. */
export async function startFront(
  listen: { host: string; port: number },
  target: { host: string; port: number },
): Promise<Front> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { host: listen.host, port: listen.port, targetHost: target.host, targetPort: target.port },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m: { port: number }) => resolve(m.port));
    worker.once('error', reject);
  });
  return {
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => worker.once('message', () => resolve()));
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}
