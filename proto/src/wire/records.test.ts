import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { parseDpoRecord, parseSftRecord, type DpoRecord, type SftRecord } from './records.js';

const origin = { id: 'gauntlet#3/step1.0', episode: 'gauntlet#3', task: 'gauntlet', seed: 3, step: 1, type: 'timer' };
const sft: SftRecord = {
  ...origin,
  reward: 1,
  messages: [
    { role: 'system', content: 'You are a web agent.' },
    { role: 'user', content: 'RootWebArea' },
    { role: 'assistant', content: "click('12')", reward: 1 },
  ],
};
const dpo: DpoRecord = {
  ...origin,
  prompt: sft.messages.slice(0, 2),
  chosen: [{ role: 'assistant', content: "click('12')" }],
  rejected: [{ role: 'assistant', content: "click('13')" }],
  rejected_outcome: 'puzzle mistake',
};

function issueAt(parse: () => unknown): (string | number)[] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues[0]!.loc;
  }
  throw new Error('expected a ValidationError');
}

describe('SFT and DPO records', () => {
  it('parse back what a collector writes, through JSON', () => {
    expect(parseSftRecord(JSON.parse(JSON.stringify(sft)))).toEqual(sft);
    expect(parseDpoRecord(JSON.parse(JSON.stringify(dpo)))).toEqual(dpo);
  });

  it('name the wrong field: a role outside system/user/assistant, an empty list, a missing key', () => {
    const badRole = { ...sft, messages: [{ role: 'tool', content: 'x' }] };
    expect(issueAt(() => parseSftRecord(badRole))).toEqual(['sft', 'messages', 0, 'role']);
    expect(issueAt(() => parseSftRecord({ ...sft, messages: [] }))).toEqual(['sft', 'messages']);
    const { rejected_outcome: _, ...noOutcome } = dpo;
    expect(issueAt(() => parseDpoRecord(noOutcome, ['dpo.jsonl', 4]))).toEqual(['dpo.jsonl', 4, 'rejected_outcome']);
  });
});
