/**
 * The bytes every WS/gRPC connection holds together: requests waiting for their turn and replies
 * not yet handed to the network. Each connection is bounded on its own; this bound is what keeps
 * many connections, each within its limits, from exhausting the process together.
 */
export class BufferBudget {
  private used = 0;

  constructor(readonly limitBytes: number) {}

  get usedBytes(): number {
    return this.used;
  }

  fits(bytes: number): boolean {
    return this.used + bytes <= this.limitBytes;
  }

  take(bytes: number): void {
    this.used += bytes;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}
