import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GroupJob, JOB_NAMES, QUEUES } from '../jobs.js';
import { BadJobError, GROUP_JOBS, parsePayload, readJob } from './consume.js';
import { sampleGroupInput } from '../../../test/samples.js';

const group = GroupJob.parse(sampleGroupInput());

describe('readJob', () => {
  it('gives the payload of a job that keeps its queue contract', () => {
    expect(readJob(GROUP_JOBS, { id: 'g', name: JOB_NAMES.group, data: group })).toEqual(group);
  });

  it('refuses a job of another name, naming the queue and the name it takes', () => {
    const read = () => readJob(GROUP_JOBS, { id: 'x', name: 'episode', data: group });
    expect(read).toThrow(BadJobError);
    expect(read).toThrow(`job x on ${QUEUES.groups} is named "episode"; only "group" jobs belong there`);
  });

  it('refuses a bad payload with the field at fault, as an UnrecoverableError that keeps the group id', () => {
    let caught: unknown;
    try {
      readJob(GROUP_JOBS, { id: 'g', name: JOB_NAMES.group, data: { ...group, size: 0, seed: 'x' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnrecoverableError);
    expect(caught).toMatchObject({ name: 'BadJobError', groupId: group.group_id });
    expect((caught as Error).message).toMatch(/^bad group job g: seed: .* \(and 1 more problem\)$/);
  });
});

describe('parsePayload', () => {
  it('names the whole payload when it is not even an object, and has no group id then', () => {
    let caught: unknown;
    try {
      parsePayload(z.object({ a: z.number() }), 'episode', undefined, 'text');
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ groupId: null });
    expect((caught as Error).message).toMatch(/^bad episode job \(no id\): \(payload\): /);
  });
});
