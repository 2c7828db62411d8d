import fs from 'node:fs';
import { once } from 'node:events';
import { benchWorldParts, type WorldSize } from './generate-world';

/**
 * Writes the bench world as a world file, one alert at a time (alerts last, so a streaming
 * loader meets everything they refer to first); memory stays flat whatever the size.
 */
export async function writeWorldFile(file: string, size: WorldSize): Promise<number> {
  const { head, alerts } = benchWorldParts(size);
  const out = fs.createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const headJson = JSON.stringify(head);
  await write(`${headJson.slice(0, -1)},"alerts":[\n`);
  // Alerts go out in chunks of about 64 KB: one write per alert would cost more than the JSON.
  let chunk = '';
  let separator = '';
  for (const alert of alerts()) {
    chunk += `${separator}${JSON.stringify(alert)}`;
    separator = ',\n';
    if (chunk.length > 65_536) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(`${chunk}\n]}\n`);
  out.end();
  await once(out, 'finish');
  return fs.statSync(file).size;
}
