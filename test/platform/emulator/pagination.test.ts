import { PlatformFixture } from '../helpers';

let fx: PlatformFixture;
beforeAll(async () => {
  fx = await PlatformFixture.start();
  for (let i = 1; i <= 45; i++) await fx.createOrg(`org-${String(i).padStart(2, '0')}`, { email: i % 2 ? `odd${i}@odd.io` : `even${i}@even.io` });
});
afterAll(async () => { await fx.stop(); });

const pageNumberOf = (link: string | null): string | null => (link === null ? null : new URL(link).searchParams.get('page[number]'));

test('unpaginated when neither page parameter is given: every organization, no links or meta', async () => {
  const res = await fx.api('GET', '/organizations');
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(45);
  expect(res.body.links).toBeUndefined();
  expect(res.body.meta).toBeUndefined();
});

test('first page: prev null, meta.pagination with page-size', async () => {
  const res = await fx.api('GET', '/organizations?page[number]=1&page[size]=20');
  expect(res.body.data).toHaveLength(20);
  expect(res.body.data[0].id).toBe('org-01');
  expect(res.body.meta.pagination).toEqual({
    'current-page': 1, 'page-size': 20, 'prev-page': null, 'next-page': 2, 'total-pages': 3, 'total-count': 45,
  });
  expect(res.body.links.prev).toBeNull();
  expect(pageNumberOf(res.body.links.self)).toBe('1');
  expect(pageNumberOf(res.body.links.first)).toBe('1');
  expect(pageNumberOf(res.body.links.next)).toBe('2');
  expect(pageNumberOf(res.body.links.last)).toBe('3');
  expect(new URL(res.body.links.next).searchParams.get('page[size]')).toBe('20');
});

test('middle and last page: next null at the end', async () => {
  const mid = await fx.api('GET', '/organizations?page[number]=2&page[size]=20');
  expect(mid.body.meta.pagination).toMatchObject({ 'current-page': 2, 'prev-page': 1, 'next-page': 3 });
  expect(pageNumberOf(mid.body.links.prev)).toBe('1');
  const last = await fx.api('GET', '/organizations?page[number]=3&page[size]=20');
  expect(last.body.data).toHaveLength(5);
  expect(last.body.links.next).toBeNull();
  expect(last.body.meta.pagination).toMatchObject({ 'current-page': 3, 'prev-page': 2, 'next-page': null });
});

test('page[size] alone defaults page[number] to 1; page[number] alone defaults page[size] to 20', async () => {
  const sizeOnly = await fx.api('GET', '/organizations?page[size]=10');
  expect(sizeOnly.body.meta.pagination).toMatchObject({ 'current-page': 1, 'page-size': 10, 'total-pages': 5 });
  const numberOnly = await fx.api('GET', '/organizations?page[number]=2');
  expect(numberOnly.body.meta.pagination).toMatchObject({ 'current-page': 2, 'page-size': 20 });
  expect(numberOnly.body.data[0].id).toBe('org-21');
});

test('page[size] is capped at 100', async () => {
  const res = await fx.api('GET', '/organizations?page[size]=500');
  expect(res.body.meta.pagination['page-size']).toBe(100);
  expect(res.body.data).toHaveLength(45);
  expect(res.body.links.next).toBeNull();
  expect(res.body.links.prev).toBeNull();
});

test('percent-encoded brackets are the same parameters', async () => {
  const res = await fx.api('GET', '/organizations?page%5Bnumber%5D=3&page%5Bsize%5D=20');
  expect(res.body.meta.pagination['current-page']).toBe(3);
  expect(res.body.data).toHaveLength(5);
  const q = await fx.api('GET', '/organizations?q%5Bname%5D=org-4');
  expect(q.body.data.map((o: any) => o.id)).toEqual(['org-40', 'org-41', 'org-42', 'org-43', 'org-44', 'org-45']);
});

test('filters: q searches name and email and wins over q[email]/q[name]; q[email] and q[name] combine', async () => {
  const byName = await fx.api('GET', '/organizations?q=org-1');
  expect(byName.body.data.map((o: any) => o.id)).toEqual(['org-10', 'org-11', 'org-12', 'org-13', 'org-14', 'org-15', 'org-16', 'org-17', 'org-18', 'org-19']);
  const byEmail = await fx.api('GET', '/organizations?q=odd45');
  expect(byEmail.body.data.map((o: any) => o.id)).toEqual(['org-45']);
  const precedence = await fx.api('GET', '/organizations?q=odd45&q[name]=org-01');
  expect(precedence.body.data.map((o: any) => o.id)).toEqual(['org-45']);
  const both = await fx.api('GET', '/organizations?q[email]=even.io&q[name]=org-1');
  expect(both.body.data.map((o: any) => o.id)).toEqual(['org-10', 'org-12', 'org-14', 'org-16', 'org-18']);
  const paged = await fx.api('GET', '/organizations?q[email]=even.io&page[size]=5&page[number]=2');
  expect(paged.body.meta.pagination).toMatchObject({ 'total-count': 22, 'total-pages': 5, 'current-page': 2 });
  expect(new URL(paged.body.links.next).searchParams.get('q[email]')).toBe('even.io');
});

test('an empty result is one page', async () => {
  const res = await fx.api('GET', '/organizations?q=zzz&page[number]=1');
  expect(res.body.data).toEqual([]);
  expect(res.body.meta.pagination).toMatchObject({ 'total-pages': 1, 'total-count': 0, 'prev-page': null, 'next-page': null });
});
