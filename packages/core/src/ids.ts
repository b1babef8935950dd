import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

// Random bytes are drawn from the OS in blocks: one system call per 256 ids instead of one per id.
const POOL_SIZE = 16 * 256;
let pool = Buffer.alloc(0);
let poolOffset = POOL_SIZE;

function random16(): Buffer {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/** A time-ordered UUID (version 7); ids generated in one process sort in creation order. */
export function uuidv7(now: number = Date.now()): string {
  if (now <= lastMs) {
    counter = (counter + 1) & 0xfff;
    if (counter === 0) lastMs += 1;
  } else {
    lastMs = now;
    counter = random16().readUInt16BE(0) & 0x7ff;
  }
  const bytes = random16();
  const ms = lastMs;
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | ((counter >>> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
