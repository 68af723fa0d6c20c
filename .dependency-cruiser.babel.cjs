/**
 * How dependency-cruiser reads TypeScript here: Babel strips the types, then it parses JavaScript.
 * (dependency-cruiser 17, the last for Node 20, otherwise reads TypeScript through the `typescript`
 * package's API, which the native TypeScript 7 does not ship; see docs/decisions/008.)
 * Stripping types would drop `import type` lines, and a type is a dependency too: the plugin keeps
 * each as a bare import of its module, so type-only imports count against the boundaries.
 */
const bareImport = (source) => ({ type: 'ImportDeclaration', specifiers: [], source, importKind: 'value' });
const keepTypeImports = {
  'ImportDeclaration|ExportNamedDeclaration|ExportAllDeclaration'(path) {
    const node = path.node;
    if (!node.source) return;
    if (node.importKind === 'type' || node.exportKind === 'type') {
      path.replaceWith(bareImport(node.source));
    } else if (node.specifiers?.some((s) => s.importKind === 'type' || s.exportKind === 'type')) {
      // `import { type A, b }`: the type specifiers go, the module stays imported.
      path.insertAfter(bareImport(node.source));
    }
  },
};

module.exports = {
  babelrc: false,
  configFile: false,
  // On entering the program, before the TypeScript preset (which removes type imports there) runs.
  plugins: [() => ({ visitor: { Program: (path) => path.traverse(keepTypeImports) } })],
  presets: [[require.resolve('@babel/preset-typescript'), { onlyRemoveTypeImports: true }]],
};
