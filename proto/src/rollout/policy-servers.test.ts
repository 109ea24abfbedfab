import { describe, expect, it } from 'vitest';
import { parsePolicyServer, policyServerName } from './policy-servers.js';

describe('policy server names', () => {
  it('a bare URL is named by its host:port; NAME=URL names it', () => {
    expect(policyServerName('http://gpu-a:8000/v1')).toBe('gpu-a:8000');
    expect(policyServerName('http://[::1]:8000')).toBe('[::1]:8000');
    expect(parsePolicyServer('http://gpu-a:8000')).toEqual({ name: 'gpu-a:8000', url: 'http://gpu-a:8000' });
    expect(parsePolicyServer('gpu-a=http://10.0.0.5:8000/v1')).toEqual({
      name: 'gpu-a',
      url: 'http://10.0.0.5:8000/v1',
    });
    // An "=" in a URL's query is no name.
    expect(parsePolicyServer('http://gpu-a:8000/v1?x=1')).toEqual({
      name: 'gpu-a:8000',
      url: 'http://gpu-a:8000/v1?x=1',
    });
    expect(() => parsePolicyServer('not a url')).toThrow(/is not a URL/);
  });
});
