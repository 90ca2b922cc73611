import { renderSql, splitStatements } from '../../../lib/secrets/database/postgres-plugin.emulator';

const values = { name: 'x" SUPERUSER --', username: 'plain_user', password: "p'w", expiration: '2030-01-01 00:00:00+0000' };

test.each([
  ['CREATE ROLE "{{name}}" WITH LOGIN PASSWORD \'{{password}}\';', 'CREATE ROLE "x"" SUPERUSER --" WITH LOGIN PASSWORD \'p\'\'w\';'],
  ['ALTER ROLE {{name}} VALID UNTIL {{expiration}}', 'ALTER ROLE "x"" SUPERUSER --" VALID UNTIL \'2030-01-01 00:00:00+0000\''],
  ['GRANT SELECT ON t TO {{username}}', 'GRANT SELECT ON t TO plain_user'],
  ['SELECT \'it\'\'s {{password}}\', "a""{{username}}"', 'SELECT \'it\'\'s p\'\'w\', "a""plain_user"'],
  ['COMMENT ON ROLE "{{username}}" IS \'{{unknown}}\'', 'COMMENT ON ROLE "plain_user" IS \'{{unknown}}\''],
])('renderSql(%j)', (template, expected) => {
  expect(renderSql(template, values)).toBe(expected);
});

test('statements are split before values go in, so a value never splits a statement', () => {
  const parts = splitStatements(['CREATE ROLE "{{name}}"; GRANT r TO "{{name}}";']).map((s) => renderSql(s, { name: 'a"; DROP TABLE t; --' }));
  expect(parts).toEqual(['CREATE ROLE "a""; DROP TABLE t; --"', 'GRANT r TO "a""; DROP TABLE t; --"']);
});
