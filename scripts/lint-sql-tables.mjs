#!/usr/bin/env node
/**
 * `npm run lint:sql`: every table is read and written only by its owner (decision 010), in raw SQL
 * too. dependency-cruiser's `own-tables-only` sees imports of schema files, so `${kits}` in a
 * template is checked there; this script reads the SQL text itself (`sql` templates, strings given
 * to `execute`, `query` and `sql.raw`, and any string that starts like a statement) and reports
 * each table named after FROM, JOIN, INTO, UPDATE, USING, TABLE, TRUNCATE, REFERENCES, COPY or LOCK
 * by a folder that does not own it.
 *
 * Owners: `src/server/db/schema/<name>.ts` declares the tables of `modules/<name>/`, or of
 * `integrations/<name>/` where no such module exists (mail). Checked: the `.ts` files under
 * `modules/`, `http/`, `lib/`, `db/` and `integrations/` (the folders the import rules cover;
 * `app.ts`, `server.ts` and the scripts beside them compose and may reach any table). Test files
 * arrange rows of other features' tables and are left out; `--tests` lists what they name.
 * Run from the repository root; exits 1 on any violation.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import babel from '@babel/core';

const SERVER = 'src/server';
const SCHEMA = `${SERVER}/db/schema`;
const CHECKED = ['modules', 'http', 'lib', 'db', 'integrations'];

/** Reaches that are meant: a file outside the owner that may name these tables, and why. */
const ALLOWED = [
  {
    file: `${SERVER}/http/session.ts`,
    tables: ['sessions', 'users'],
    reason: 'every request resolves its session before any feature runs (decision 010)',
  },
  {
    file: `${SERVER}/http/rate-limit.ts`,
    tables: ['rate_limits'],
    reason: "the limiter is cross-cutting; its table only lives in accounts' schema file (decision 010)",
  },
];

/** Words after which a table may be named. */
const TABLE_BEFORE = new Set([
  'FROM',
  'JOIN',
  'INTO',
  'UPDATE',
  'USING',
  'TABLE',
  'TRUNCATE',
  'REFERENCES',
  'COPY',
  'LOCK',
]);
/** Keywords followed by a list of tables. */
const LIST = new Set(['FROM', 'USING', 'TRUNCATE', 'LOCK']);
/** Words between the keyword and the table. */
const SKIPPED = new Set(['ONLY', 'TABLE', 'IF', 'NOT', 'EXISTS', 'LATERAL']);
/** Functions whose arguments use FROM for something else: `extract(day FROM at)`. */
const FROM_IN_CALL = new Set(['EXTRACT', 'SUBSTRING', 'TRIM', 'OVERLAY', 'POSITION']);
/** Words that end a FROM item, so they are no alias. */
const CLAUSE = new Set(
  'WHERE JOIN LEFT RIGHT INNER FULL CROSS NATURAL ON USING GROUP ORDER LIMIT OFFSET HAVING WINDOW UNION EXCEPT INTERSECT RETURNING SET FOR TABLESAMPLE VALUES SELECT DEFAULT WHEN THEN ELSE END AND OR'.split(
    ' ',
  ),
);
/** A string that starts like a statement is SQL wherever it is written. */
const STATEMENT =
  /^\s*(SELECT\b|INSERT INTO\b|DELETE FROM\b|UPDATE\s+"?\w+"?\s+(AS\s+\w+\s+)?SET\b|WITH\s+(RECURSIVE\s+)?\w+\s+AS\b|TRUNCATE\b|ALTER TABLE\b|LOCK TABLE\b)/;

const parse = (file, code) =>
  babel.parseSync(code, {
    filename: file,
    configFile: false,
    babelrc: false,
    sourceType: 'module',
    parserOpts: { plugins: ['typescript'] },
  });

function* walk(node) {
  if (!node || typeof node.type !== 'string') return;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
    if (Array.isArray(value)) for (const child of value) yield* walk(child);
    else if (value && typeof value === 'object') yield* walk(value);
  }
}

const filesUnder = (dir) =>
  !existsSync(dir)
    ? []
    : readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) return filesUnder(full);
        return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
      });

/** Table name -> owning folder (`modules/orders`), from each schema file's `pgTable('name', ...)`. */
export function tableOwners(root) {
  const owners = new Map();
  const problems = [];
  for (const file of filesUnder(path.join(root, SCHEMA))) {
    const name = path.basename(file, '.ts');
    const tables = [];
    for (const node of walk(parse(file, readFileSync(file, 'utf8')).program)) {
      const callee = node.type === 'CallExpression' ? node.callee : undefined;
      if (callee?.type === 'Identifier' && callee.name === 'pgTable' && node.arguments[0]?.type === 'StringLiteral')
        tables.push(node.arguments[0].value);
    }
    if (tables.length === 0) continue; // index.ts, columns.ts
    const owner = ['modules', 'integrations']
      .map((kind) => `${kind}/${name}`)
      .find((folder) => existsSync(path.join(root, SERVER, folder)));
    if (!owner)
      problems.push(`${SCHEMA}/${name}.ts declares tables but no modules/${name}/ or integrations/${name}/ owns them`);
    for (const table of tables) owners.set(table, owner ?? `(none: ${name}.ts)`);
  }
  return { owners, problems };
}

/** The folder a checked file speaks for: `modules/orders`, `integrations/mail`, `http`, `lib`, `db`. */
function reacherOf(relative) {
  const [, , top, sub] = relative.split('/');
  return top === 'modules' || top === 'integrations' ? `${top}/${sub}` : top;
}

/**
 * The SQL a node spells, in pieces with the line each starts on; an interpolation becomes `?`
 * (a Drizzle table object or an owner's fragment, which the import rules check).
 */
function sqlPieces(node, consts) {
  if (!node) return undefined;
  if (node.type === 'StringLiteral') return [{ text: node.value, line: node.loc.start.line }];
  if (node.type === 'TemplateLiteral') {
    return node.quasis.flatMap((quasi, i) => [
      { text: quasi.value.cooked ?? quasi.value.raw, line: quasi.loc.start.line },
      ...(i < node.expressions.length ? [{ text: ' ? ', line: quasi.loc.end.line }] : []),
    ]);
  }
  if (node.type === 'BinaryExpression' && node.operator === '+') {
    const left = sqlPieces(node.left, consts) ?? [{ text: ' ? ', line: node.left.loc.end.line }];
    const right = sqlPieces(node.right, consts) ?? [{ text: ' ? ', line: node.right.loc.start.line }];
    return [...left, ...right];
  }
  if (node.type === 'Identifier' && consts.has(node.name)) return sqlPieces(consts.get(node.name), new Map());
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression')
    return sqlPieces(node.expression, consts);
  return undefined;
}

/** Splits SQL into words, quoted identifiers and punctuation, each with its line; drops comments and strings. */
function tokens(pieces) {
  const out = [];
  for (const { text, line: first } of pieces) {
    let line = first;
    const pattern =
      /--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|"((?:[^"]|"")+)"|([A-Za-z_][\w$]*(?:\.(?:[A-Za-z_][\w$]*|"[^"]+"))?)|([(),;?])|\n/g;
    for (const match of text.matchAll(pattern)) {
      const [all, quoted, word, punct] = match;
      if (all === '\n') line++;
      else if (quoted !== undefined) out.push({ word: quoted.replaceAll('""', '"'), line, quoted: true });
      else if (word !== undefined) out.push({ word: word.replaceAll('"', ''), line });
      else if (punct !== undefined) out.push({ punct, line });
      if (all !== '\n') line += (all.match(/\n/g) ?? []).length;
    }
  }
  return out;
}

/** Each table an SQL text names, with its line (names a CTE shadows are left out). */
export function tablesNamed(pieces) {
  const toks = tokens(pieces);
  const upper = (t) => (t?.word !== undefined && !t.quoted ? t.word.toUpperCase() : undefined);
  const ctes = new Set();
  for (let i = 0; i + 2 < toks.length; i++) {
    const before = upper(toks[i]) ?? toks[i].punct;
    if (
      (before === 'WITH' || before === 'RECURSIVE' || before === ',') &&
      toks[i + 1].word &&
      upper(toks[i + 2]) === 'AS'
    )
      ctes.add(toks[i + 1].word.toLowerCase());
  }
  const closing = (open) => {
    let depth = 0;
    for (let k = open; k < toks.length; k++) {
      if (toks[k].punct === '(') depth++;
      if (toks[k].punct === ')' && --depth === 0) return k;
    }
    return toks.length;
  };
  const found = [];
  const calls = []; // the word before each open parenthesis
  const named = (t) => {
    const word = t.word.toLowerCase();
    const [schema, table] = word.includes('.') ? word.split('.') : ['public', word];
    const seen = found.some((f) => f.table === table && f.line === t.line);
    if (schema === 'public' && !ctes.has(table) && !seen) found.push({ table, line: t.line });
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.punct === '(') calls.push(upper(toks[i - 1]));
    if (t.punct === ')') calls.pop();
    const keyword = upper(t);
    if (!keyword || !TABLE_BEFORE.has(keyword)) continue;
    if (keyword === 'FROM' && (upper(toks[i - 1]) === 'DISTINCT' || FROM_IN_CALL.has(calls.at(-1)))) continue;
    let j = i + 1;
    while (upper(toks[j]) && SKIPPED.has(upper(toks[j]))) j++;
    if (!LIST.has(keyword)) {
      if (toks[j]?.word !== undefined) named(toks[j]);
      continue;
    }
    // A list of items, each a table, a function call, a subquery or an interpolation, with an
    // optional alias: FROM a x, generate_series(1, 3) AS g, (SELECT ...) s, ${t}
    for (;;) {
      while (upper(toks[j]) && SKIPPED.has(upper(toks[j]))) j++;
      if (toks[j]?.punct === '(') j = closing(j) + 1;
      else if (toks[j]?.punct === '?') j++;
      else if (toks[j]?.word !== undefined) {
        named(toks[j]);
        j++;
        if (toks[j]?.punct === '(') j = closing(j) + 1;
      } else break;
      if (upper(toks[j]) === 'AS') j += 2;
      else if (toks[j]?.word !== undefined && !CLAUSE.has(upper(toks[j]))) j++;
      if (toks[j]?.punct === '(') j = closing(j) + 1; // a column alias list
      if (toks[j]?.punct !== ',') break;
      j++;
    }
  }
  return found;
}

const isSqlTag = (tag) =>
  (tag.type === 'Identifier' && tag.name === 'sql') ||
  (tag.type === 'MemberExpression' && tag.property.type === 'Identifier' && tag.property.name === 'sql');
const SQL_CALLS = new Set(['execute', 'query', 'raw', 'unsafe']);

/** Every SQL text in a file: pieces per statement. */
export function sqlTexts(file, code) {
  const ast = parse(file, code);
  const consts = new Map();
  for (const node of walk(ast.program))
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init)
      consts.set(node.id.name, node.init);
  const texts = [];
  const seen = new Set();
  const add = (node, pieces) => {
    if (!pieces || seen.has(node)) return;
    seen.add(node);
    texts.push(pieces);
  };
  for (const node of walk(ast.program)) {
    if (node.type === 'TaggedTemplateExpression' && isSqlTag(node.tag)) {
      add(node.quasi, sqlPieces(node.quasi, consts));
    } else if (node.type === 'CallExpression') {
      const callee = node.callee;
      const name =
        callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : undefined;
      const identifier =
        callee.type === 'MemberExpression' && callee.object.type === 'Identifier' ? callee.object.name : '';
      if (name === 'identifier' && identifier === 'sql' && node.arguments[0]?.type === 'StringLiteral') {
        add(node.arguments[0], [{ text: `FROM "${node.arguments[0].value}"`, line: node.loc.start.line }]);
      } else if (name && SQL_CALLS.has(name)) {
        const arg = node.arguments[0];
        const target = arg?.type === 'Identifier' ? consts.get(arg.name) : arg;
        add(target ?? arg, sqlPieces(arg, consts));
      }
    } else if (node.type === 'StringLiteral' || node.type === 'TemplateLiteral') {
      const pieces = sqlPieces(node, new Map());
      if (pieces && STATEMENT.test(pieces[0].text)) add(node, pieces);
    }
  }
  return texts;
}

/** Every raw-SQL reach of a table by a folder that does not own it. */
export function check(root, { tests = false } = {}) {
  const { owners, problems } = tableOwners(root);
  const violations = [];
  for (const top of CHECKED) {
    for (const file of filesUnder(path.join(root, SERVER, top))) {
      const relative = path.relative(root, file).split(path.sep).join('/');
      if (relative.startsWith(`${SCHEMA}/`) || relative.startsWith(`${SERVER}/db/migrations/`)) continue;
      if (!tests && relative.endsWith('.test.ts')) continue;
      const reacher = reacherOf(relative);
      for (const pieces of sqlTexts(file, readFileSync(file, 'utf8'))) {
        for (const { table, line } of tablesNamed(pieces)) {
          const owner = owners.get(table);
          if (!owner || owner === reacher) continue;
          if (ALLOWED.some((a) => a.file === relative && a.tables.includes(table))) continue;
          violations.push({ file: relative, line, table, owner, reacher });
        }
      }
    }
  }
  return { problems, violations };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { problems, violations } = check(process.cwd(), { tests: process.argv.includes('--tests') });
  for (const problem of problems) console.log(`error sql-own-tables-only: ${problem}`);
  for (const v of violations)
    console.log(
      `error sql-own-tables-only: ${v.file}:${v.line} names ${v.table} in raw SQL; ${v.owner} owns it, ` +
        `so ${v.reacher} asks its service (decision 010)`,
    );
  const count = problems.length + violations.length;
  if (count > 0) {
    console.log(`\nx ${count} raw-SQL table ownership violation${count === 1 ? '' : 's'}`);
    process.exit(1);
  }
  console.log('no raw-SQL table ownership violations found');
}
