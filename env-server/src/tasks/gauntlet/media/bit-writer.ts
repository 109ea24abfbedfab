/** MSB-first bit writer with H.264's Exp-Golomb codes (ue/se). */
export class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  bits(value: number, count: number): this {
    for (let i = count - 1; i >= 0; i--) {
      this.current = (this.current << 1) | ((value >>> i) & 1);
      if (++this.used === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
    return this;
  }

  flag(on: boolean): this {
    return this.bits(on ? 1 : 0, 1);
  }

  /** Unsigned Exp-Golomb: (len-1) zeros, then value+1 in len bits. */
  ue(value: number): this {
    const coded = value + 1;
    const length = 32 - Math.clz32(coded);
    return this.bits(0, length - 1).bits(coded, length);
  }

  /** Signed Exp-Golomb: 0, 1, -1, 2, -2, … map to 0, 1, 2, 3, 4, … */
  se(value: number): this {
    return this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }

  get aligned(): boolean {
    return this.used === 0;
  }

  alignWithZeros(): this {
    while (this.used !== 0) this.bits(0, 1);
    return this;
  }

  byte(value: number): this {
    return this.bits(value, 8);
  }

  /** rbsp_trailing_bits: a stop bit, then zeros to the byte boundary. */
  finish(): Uint8Array {
    this.bits(1, 1).alignWithZeros();
    return Uint8Array.from(this.bytes);
  }
}
