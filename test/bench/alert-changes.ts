import http from 'node:http';
import { BENCH_TOKEN } from './generate-world';

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One PATCH of #27 (dismiss or reopen) as the benchmark's owner; resolves at its 2xx answer. */
export function patchAlert(base: string, repository: string, number: number, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/repos/${repository}/dependency-bot/alerts/${number}`, {
      method: 'PATCH', agent, headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`PATCH ${repository}#${number}: ${response.statusCode}`))));
    });
    request.on('error', reject);
    request.end(body);
  });
}
