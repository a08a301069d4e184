// @ts-check
/**
 * The house's own lint rules, for what no-restricted-imports cannot say:
 * - `infra-imports`: infrastructure (src/lib/server/infra) imports no feature, page, component,
 *   layout, the middleware or the composition root (services.ts); features are handed in instead.
 * - `table-writes`: a table is written (insert, update, delete) only by its feature (the folder of
 *   the tables file it is imported from) and, within the feature, by the module the owner map
 *   names; a column kept apart (an update's `.set({ column })`) only by its own owner.
 * Import paths are resolved as the project writes them: relative, or `@/` for src/.
 */
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const SERVER = path.join(SRC, 'lib', 'server');
const INFRA = path.join(SERVER, 'infra');

/** The file an import path names (without extension), or null for a package. */
function resolveImport(/** @type {string} */ fromFile, /** @type {string} */ spec) {
  let target;
  if (spec.startsWith('@/')) target = path.join(SRC, spec.slice(2));
  else if (spec.startsWith('.')) target = path.resolve(path.dirname(fromFile), spec);
  else return null;
  return target.replace(/\.(ts|tsx|js|mjs|astro)$/, '');
}

const inside = (/** @type {string} */ file, /** @type {string} */ dir) => file === dir || file.startsWith(dir + path.sep);

/** A module's name: its path under src/lib/server without the extension (`cart/cart`), or null outside it. */
function moduleOf(/** @type {string} */ file) {
  if (!inside(file, SERVER)) return null;
  return path.relative(SERVER, file).split(path.sep).join('/').replace(/\.(ts|tsx|js|mjs)$/, '');
}

/** A module's feature: its first folder under src/lib/server (`infra` for infrastructure). */
const featureOf = (/** @type {string} */ module) => module.split('/')[0] ?? module;

/** The feature whose tables file `target` is (`src/lib/server/<feature>/tables`, `infra/tables`), or null. */
function tablesFeature(/** @type {string} */ target) {
  const module = moduleOf(target);
  return module && /(^|\/)tables$/.test(module) && module.includes('/') ? featureOf(module) : null;
}

/** Shell-style module patterns of the options (`demo/*`, `operations/dump`). */
function globMatch(/** @type {string} */ pattern, /** @type {string} */ module) {
  const re = new RegExp('^' + pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*') + '$');
  return re.test(module);
}

/** @type {import('eslint').Rule.RuleModule} */
const infraImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Infrastructure imports no feature, page, component or the composition root.' },
    schema: [],
    messages: {
      feature:
        "Infrastructure (src/lib/server/infra) imports no feature, page, component, layout or services.ts: '{{spec}}' is {{what}}. Move the code to its feature, or have the composition root (services.ts, the middleware) hand it in.",
    },
  },
  create(context) {
    const file = context.filename;
    if (!inside(file, INFRA)) return {};
    /** @type {[string, string][]} */
    const outside = [
      [path.join(SRC, 'components'), 'a component'],
      [path.join(SRC, 'layouts'), 'a layout'],
      [path.join(SRC, 'pages'), 'a page'],
      [path.join(SRC, 'middleware'), 'the middleware'],
    ];
    /** @param {any} node */
    function check(node) {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveImport(file, source.value);
      if (!target || inside(target, INFRA)) return;
      let what = null;
      if (inside(target, SERVER)) what = moduleOf(target) === 'services' ? 'the composition root' : `the ${featureOf(moduleOf(target) ?? '')} feature`;
      for (const [dir, name] of outside) if (inside(target, dir)) what = name;
      if (what) context.report({ node: source, messageId: 'feature', data: { spec: source.value, what } });
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

const WRITES = new Set(['insert', 'update', 'delete']);

/** The keys an object literal sets; '*' for a spread or a key that is not a plain name. */
function literalKeys(/** @type {any} */ node) {
  if (!node || node.type !== 'ObjectExpression') return ['*'];
  return node.properties.map((/** @type {any} */ p) =>
    p.type === 'Property' && !p.computed && p.key.type === 'Identifier' ? p.key.name : p.type === 'Property' && p.key.type === 'Literal' ? String(p.key.value) : '*',
  );
}

/** @type {import('eslint').Rule.RuleModule} */
const tableWrites = {
  meta: {
    type: 'problem',
    docs: { description: "A table is written only by its feature's modules, and by the module that owns it." },
    schema: [
      {
        type: 'object',
        properties: {
          tables: { type: 'object', additionalProperties: { type: 'string' } },
          columns: { type: 'object', additionalProperties: { type: 'string' } },
          aside: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      otherFeature: "{{table}} belongs to the {{owner}} feature ({{owner}}/tables.ts): only its modules write it. Call the {{owner}} feature's service instead.",
      notOwner: '{{what}} is written only by {{owner}}.ts (the owner map in eslint/table-owners.js); call it from here.',
      noOwner: '{{table}} has no owner in the owner map (eslint/table-owners.js).',
    },
  },
  create(context) {
    const file = context.filename;
    const module = moduleOf(file);
    if (!module) return {};
    const feature = featureOf(module);
    const options = context.options[0] ?? {};
    /** @type {Record<string, string>} */
    const owners = options.tables ?? {};
    /** @type {Record<string, string>} */
    const columns = options.columns ?? {};
    const asideFeatures = Object.entries(/** @type {Record<string, string[]>} */ (options.aside ?? {}))
      .filter(([pattern]) => globMatch(pattern, module))
      .flatMap(([, features]) => features);
    /** Local name -> { table: exported name, feature }. */
    const tables = new Map();
    return {
      ImportDeclaration(node) {
        const target = typeof node.source.value === 'string' ? resolveImport(file, node.source.value) : null;
        const owner = target && tablesFeature(target);
        if (!owner) return;
        for (const s of node.specifiers) {
          if (s.type === 'ImportSpecifier') {
            const imported = s.imported.type === 'Identifier' ? s.imported.name : String(s.imported.value);
            tables.set(s.local.name, { table: imported, feature: owner });
          }
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier' || !WRITES.has(callee.property.name)) return;
        const arg = node.arguments[0];
        if (node.arguments.length !== 1 || !arg || arg.type !== 'Identifier') return;
        const found = tables.get(arg.name);
        if (!found) return;
        const { table, feature: tableFeature } = found;
        if (asideFeatures.includes('*') || asideFeatures.includes(tableFeature)) return;
        let keys = ['*'];
        if (callee.property.name === 'update') {
          /** @type {any} */
          const parent = node.parent;
          const set = parent?.type === 'MemberExpression' && parent.property?.name === 'set' && parent.parent?.type === 'CallExpression' ? parent.parent : null;
          keys = set ? literalKeys(set.arguments[0]) : ['*'];
        }
        /** What is written by a module that does not own it -> its owner (a column kept apart may be owned across features). */
        const strays = new Map();
        let otherFeature = false;
        for (const key of keys) {
          const columnOwner = columns[`${table}.${key}`];
          if (columnOwner) {
            if (columnOwner !== module) strays.set(`${table}.${key}`, columnOwner);
          } else if (tableFeature !== feature) otherFeature = true;
          else if (options.tables && !owners[table]) context.report({ node: arg, messageId: 'noOwner', data: { table } });
          else if (options.tables && owners[table] !== module) strays.set(table, owners[table]);
        }
        if (otherFeature) context.report({ node: arg, messageId: 'otherFeature', data: { table, owner: tableFeature } });
        for (const [what, owner] of strays) context.report({ node: arg, messageId: 'notOwner', data: { what, owner } });
      },
    };
  },
};

export default { meta: { name: 'house' }, rules: { 'infra-imports': infraImports, 'table-writes': tableWrites } };
