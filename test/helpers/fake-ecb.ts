import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The ECB's answers kept for tests (test/fixtures/ecb/README.md says where each is from). */
export const ECB_FIXTURES = fileURLToPath(new URL('../fixtures/ecb/', import.meta.url));

export interface FakeEcb {
  /** The web service's entry point, as --ecb-url takes it: http://127.0.0.1:<port>/service. */
  baseUrl: string;
  /** Every request's path and query, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** One series' answer file: its header line and its rows, each with its day (TIME_PERIOD). */
interface Series {
  header: string;
  rows: { day: string; line: string }[];
}

async function readSeries(dir: string, key: string): Promise<Series | undefined> {
  let text: string;
  try {
    text = await readFile(`${dir}EXR.${key}.csv`, 'utf8');
  } catch {
    return undefined;
  }
  const [header = '', ...lines] = text.split('\r\n').filter((l) => l !== '');
  const day = header.split(',').indexOf('TIME_PERIOD');
  return { header, rows: lines.map((line) => ({ day: line.split(',')[day] ?? '', line })) };
}

/**
 * A local stand-in for the ECB data portal's data service (https://data.ecb.europa.eu/help/api/data), for tests:
 * `GET /service/data/EXR/<key>?startPeriod=YYYY-MM-DD&endPeriod=YYYY-MM-DD&format=csvdata` answers the rows of
 * `fixtures/EXR.<key>.csv` whose TIME_PERIOD falls in the period, under the file's header, lines ended by CRLF as
 * the ECB ends them (the kept sample). As the service's "Status codes" page says: 404 "No results found" for a
 * series or period without a row, 400 for a malformed period; and 406 here without format=csvdata (the real
 * service would answer SDMX-ML, which ledgerpipe never asks for). Anything but GET: 405. Binds 127.0.0.1 on a free
 * port.
 *
 * @example
 * const ecb = await startFakeEcb();
 * // LEDGERPIPE_ECB_URL=ecb.baseUrl ... ; ecb.requests lists what was asked
 * await ecb.close();
 */
export async function startFakeEcb(options: { fixtures?: string } = {}): Promise<FakeEcb> {
  const dir = options.fixtures ?? ECB_FIXTURES;
  const requests: string[] = [];
  const answer = (res: ServerResponse, status: number, body: string, type = 'text/plain') => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    if (req.method !== 'GET') return answer(res, 405, 'Method not allowed');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = /^\/service\/data\/EXR\/([A-Z0-9.]+)$/.exec(url.pathname);
    if (match === null) return answer(res, 404, 'No results found');
    if (url.searchParams.get('format') !== 'csvdata') return answer(res, 406, 'Not Acceptable');
    const start = url.searchParams.get('startPeriod') ?? '0000-00-00';
    const end = url.searchParams.get('endPeriod') ?? '9999-99-99';
    if (![start, end].every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))) return answer(res, 400, 'Syntax error');
    const series = await readSeries(dir, match[1] as string);
    const rows = series?.rows.filter((r) => r.day >= start && r.day <= end) ?? [];
    if (series === undefined || rows.length === 0) return answer(res, 404, 'No results found');
    return answer(res, 200, [series.header, ...rows.map((r) => r.line)].map((l) => `${l}\r\n`).join(''), 'text/csv');
  };
  const server = createServer(
    (req, res) => void handle(req, res).catch(() => answer(res, 500, 'Internal Server Error')),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/service`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error === undefined ? resolve() : reject(error))),
      ),
  };
}
