import { readFileSync, writeFileSync } from 'node:fs';

const MB = 1024 * 1024;

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(line[1]) * 1024;
}

/**
 * Measures how far one attack raised a process's resident memory at its peak: the kernel's
 * high-water mark (VmHWM) is reset first, so a spike between two samples is not missed.
 */
export class PeakRss {
  private readonly before: number;

  constructor(private readonly pid: number) {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    this.before = statusKb(pid, 'VmRSS');
  }

  /** Peak RSS since construction, minus RSS then, in MB. */
  growthMb(): number {
    return (statusKb(this.pid, 'VmHWM') - this.before) / MB;
  }
}
