/** For the damaged-file tests: zeroing one page of a SQLite file, as a torn write or a bad sector leaves it. */
import { closeSync, openSync, writeSync } from 'node:fs';

export const PAGE = 4096;

export function zeroPage(file: string, offset: number) {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(PAGE), 0, PAGE, offset);
  closeSync(fd);
}
