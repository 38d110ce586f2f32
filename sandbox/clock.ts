/**
 * The sandbox's notion of now. Tests move it forward (POST /_sandbox/clock) to cross the finalize
 * delay or a download link's expiry without sleeping.
 */
export class SandboxClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
