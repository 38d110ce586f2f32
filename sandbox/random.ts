import { randomBytes } from 'node:crypto';

/**
 * A small seedable generator (mulberry32) so fault injection and generated tokens repeat exactly
 * for a given `seed`; without a seed it is seeded from the OS.
 */
export class SeededRandom {
  private state: number;

  constructor(seed?: number) {
    this.state = (seed ?? randomBytes(4).readUInt32LE(0)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Hex text of `bytes` random bytes. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 1) out += Math.floor(this.next() * 256).toString(16).padStart(2, '0');
    return out;
  }
}
