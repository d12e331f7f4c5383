import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/errors/index.js';
import { createPathForms } from '../../src/client/path-forms.js';

const notFound = (path: string) => new HttpError('not found', { request: { method: 'GET', path }, status: 404 });

describe('createPathForms', () => {
  it('uses the current form while it works', async () => {
    const forms = createPathForms();
    const tried: string[] = [];
    expect(forms.formOf('list:products')).toBe('unknown');
    await forms.send('list:products', { current: 'products', legacy: 'products/list' }, async (p) => tried.push(p));
    expect(tried).toEqual(['products']);
    expect(forms.formOf('list:products')).toBe('current');
  });

  it('once the current form worked, passes a 404 through: it is about the record, not the path', async () => {
    const forms = createPathForms();
    const tried: string[] = [];
    const pair = { current: 'orders/latest/1', legacy: 'orders/latest' };
    await forms.send('latest', pair, async (p) => tried.push(p));
    const missing = notFound('orders/latest/999');
    await expect(forms.send('latest', { ...pair, current: 'orders/latest/999' }, async (p) => (tried.push(p), Promise.reject(missing)))).rejects.toBe(missing);
    expect(tried).toEqual(['orders/latest/1', 'orders/latest/999']);
  });

  it('does not remember the earlier form when its answer does not prove it', async () => {
    const forms = createPathForms();
    const attempt = async (p: string) => (p === 'legacy' ? 'empty' : Promise.reject(notFound(p)));
    expect(await forms.send('e', { current: 'current', legacy: 'legacy' }, attempt, (r) => r !== 'empty')).toBe('empty');
    expect(forms.formOf('e')).toBe('unknown');
  });

  it('tries today\'s form again when a remembered earlier form starts answering 404 (server upgraded)', async () => {
    const forms = createPathForms();
    let upgraded = false;
    const attempt = async (p: string) => ((p === 'legacy') !== upgraded ? p : Promise.reject(notFound(p)));
    await forms.send('e', { current: 'current', legacy: 'legacy' }, attempt);
    expect(forms.formOf('e')).toBe('legacy');
    upgraded = true;
    expect(await forms.send('e', { current: 'current', legacy: 'legacy' }, attempt)).toBe('current');
    expect(forms.formOf('e')).toBe('current');
  });

  it('falls back to the earlier form on 404 and remembers it per endpoint', async () => {
    const forms = createPathForms();
    const tried: string[] = [];
    const attempt = async (p: string) => {
      tried.push(p);
      if (!p.endsWith('/list')) throw notFound(p);
      return p;
    };
    expect(await forms.send('list:shops', { current: 'shops', legacy: 'shops/list' }, attempt)).toBe('shops/list');
    expect(await forms.send('list:shops', { current: 'shops', legacy: 'shops/list' }, attempt)).toBe('shops/list');
    expect(tried).toEqual(['shops', 'shops/list', 'shops/list']);
    expect(forms.formOf('list:shops')).toBe('legacy');
    expect(forms.formOf('list:orders')).toBe('unknown');
  });

  it('throws the first 404 when neither form exists, and other errors as they are', async () => {
    const forms = createPathForms();
    const first = notFound('shops');
    await expect(forms.send('e', { current: 'a', legacy: 'b' }, async (p) => Promise.reject(p === 'a' ? first : notFound(p)))).rejects.toBe(first);
    const boom = new HttpError('boom', { request: { method: 'GET', path: 'a' }, status: 500 });
    await expect(forms.send('e', { current: 'a', legacy: 'b' }, async () => Promise.reject(boom))).rejects.toBe(boom);
    expect(forms.formOf('e')).toBe('unknown');
  });
});
