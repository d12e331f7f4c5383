import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { api } from './helpers.js';

describe('authorization', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ token: 'tok-123' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('accepts exactly "A|<token>"', async () => {
    expect((await api(sim).get('/shops')).status).toBe(200);
  });

  it('answers 401 with a JSON body for a missing, wrong or Bearer token, and never echoes it', async () => {
    for (const headers of [{}, { authorization: 'A|wrong' }, { authorization: 'Bearer tok-123' }, { authorization: 'a|tok-123' }, { authorization: 'A| tok-123' }, { authorization: 'A|tok-1234' }]) {
      const answer = await api(sim).get('/shops', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(answer.json).toMatchObject({ error: 'unauthorized' });
      expect(answer.text).not.toContain('tok-123');
      expect(answer.text).not.toContain('wrong');
    }
  });

  it('checks the token before routing, so unknown paths do not leak', async () => {
    expect((await api(sim).get('/no/such/path', {})).status).toBe(401);
    expect((await api(sim).get('/no/such/path')).status).toBe(404);
  });

  it('logs request headers without Authorization', async () => {
    await api(sim).get('/shops', { authorization: 'A|tok-123', 'user-agent': 'sim-test/1 (dev@example.cz)', accept: 'application/json' });
    const headers = sim.requests.lastHeaders();
    expect(headers?.['user-agent']).toBe('sim-test/1 (dev@example.cz)');
    expect(headers?.accept).toBe('application/json');
    expect(headers && 'authorization' in headers).toBe(false);
    expect(JSON.stringify(sim.requests.recent())).not.toContain('tok-123');
  });

  it('setToken() revokes the old token at once and accepts only the new one', async () => {
    const rotated = await createSimulator({ token: 'first-token' });
    try {
      expect((await api(rotated, 'first-token').get('/shops')).status).toBe(200);
      rotated.setToken('second-token');
      expect(rotated.token).toBe('second-token');
      expect((await api(rotated, 'first-token').get('/shops')).status).toBe(401);
      expect((await api(rotated, 'second-token').get('/shops')).status).toBe(200);
      for (const bad of ['', 'has space', 'tab\tin', 42 as unknown as string]) {
        expect(() => rotated.setToken(bad), JSON.stringify(bad)).toThrow(/token: expected a non-empty string of visible ASCII/);
      }
      expect(rotated.token).toBe('second-token');
    } finally {
      await rotated.close();
    }
  });

  it('answers a CORS preflight without credentials, and allows any origin', async () => {
    const preflight = await fetch(`${sim.baseUrl}/orders`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization');
    expect((await api(sim).get('/shops')).headers.get('access-control-allow-origin')).toBe('*');
  });
});
