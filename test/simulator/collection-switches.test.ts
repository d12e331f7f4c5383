import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/simulator/cli-args.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { api } from './helpers.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('the missingCollections switch', () => {
  it('answers 404 at every path of a collection the tenant lacks, and leaves the others alone', async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', missingCollections: ['customers', 'categories'] });
    const http = api(sim);
    const customer = sim.store.list('customers')[0]!;
    for (const path of ['/customers?limit=5', '/customers/list?limit=5', `/customers/${customer.id}`, '/categories', '/categories/list']) {
      expect((await http.get(path)).status, path).toBe(404);
    }
    expect((await http.post('/customers', { _t: 'customers', company: 'X' })).status).toBe(404);
    expect((await http.get('/products?limit=5')).status).toBe(200);
  });

  it('can be changed while the simulator runs', async () => {
    sim = await createSimulator({ port: 0, size: 'tiny' });
    sim.setOptions({ missingCollections: ['employees'] });
    expect((await api(sim).get('/employees')).status).toBe(404);
    sim.setOptions({ missingCollections: [] });
    expect((await api(sim).get('/employees')).status).toBe(200);
  });
});

describe('the failingCollections switch', () => {
  it('answers 500 to every list request of the collection, in both forms, while its POSTs still work', async () => {
    sim = await createSimulator({ port: 0, size: 'tiny', failingCollections: ['products'] });
    const http = api(sim);
    expect((await http.get('/products?limit=5')).status).toBe(500);
    expect((await http.get('/products/list?limit=5')).status).toBe(500);
    const product = sim.store.list('products')[0]!;
    expect((await http.get(`/products/${product.id}`)).status).toBe(200);
    expect((await http.post('/products', { _t: 'products', name: 'Espresso', date_updated: 1 })).status).toBe(200);
  });
});

describe('the collection switches as options', () => {
  it('refuses a name that is not a collection, naming the option', async () => {
    await expect(createSimulator({ port: 0, size: 'tiny', missingCollections: ['clients' as never] })).rejects.toThrow(/missingCollections/);
  });

  it('are read from the command line as comma-separated lists', () => {
    const command = parseCliArgs(['--missing-collections', 'employees, shifts', '--failing-collections', 'customers']);
    expect(command).toMatchObject({ help: false, options: { missingCollections: ['employees', 'shifts'], failingCollections: ['customers'] } });
  });
});
