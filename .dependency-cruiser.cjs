// Import rules, checked by `npm run lint` (and `npm run lint:deps` alone). A wrong import fails CI.
//
// Server layers, top to bottom; a layer imports only from layers below it:
//   entry    main.ts, root.ts (composition root), http/app.ts, cli/ (commands)
//   routes   modules/<area>/ (+ the request helpers http/auth, validate, envelope, contract-check, idempotency)
//   domain   chat, ingest, search, agents, agent-tools, graph, raptor, policy
//   ports    queue, storage, models, chunk-index, net, sandbox, tracing, context.ts
//   base     db, util, security, health, config.ts, errors.ts, version.ts
// Web: a feature imports another feature only through its index.ts; components/, lib/ and api/
// never import features.
const S = '^apps/server/src/';
const layer = {
  entry: `${S}(main|root)\\.ts$|${S}http/app\\.ts$|${S}cli/`,
  routes: `${S}modules/|${S}http/(auth|validate|envelope|contract-check|idempotency)\\.ts$`,
  domain: `${S}(chat|ingest|search|agents|agent-tools|graph|raptor|policy)/`,
  ports: `${S}(queue|storage|models|chunk-index|net|sandbox|tracing)/|${S}context\\.ts$`,
  base: `${S}(db|util|security|health)/|${S}(config|errors|version)\\.ts$`,
};
// Tests, fixtures and stand-ins may reach anywhere (they assemble whole servers).
const notTest = '\\.test\\.ts$|/test-[^/]*\\.ts$|/testing/|^apps/server/test/';

function forbid(name, from, to) {
  return {
    name,
    severity: 'error',
    comment: `${name}: imports run downward only (see .dependency-cruiser.cjs)`,
    from: { path: from, pathNot: notTest },
    to: { path: to },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make layers meaningless.',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    forbid(
      'base-imports-upward',
      layer.base,
      [layer.ports, layer.domain, layer.routes, layer.entry].join('|'),
    ),
    forbid('ports-import-upward', layer.ports, [layer.domain, layer.routes, layer.entry].join('|')),
    forbid('domain-imports-upward', layer.domain, [layer.routes, layer.entry].join('|')),
    forbid('routes-import-entry', layer.routes, layer.entry),
    {
      name: 'web-feature-internals',
      severity: 'error',
      comment: 'A feature imports another feature only through its index.ts.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: {
        path: '^apps/web/src/features/([^/]+)/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/index\\.tsx?$'],
      },
    },
    {
      name: 'web-shared-imports-feature',
      severity: 'error',
      comment: 'components/, lib/ and api/ are shared by features and never import one.',
      from: { path: '^apps/web/src/(components|lib|api)/' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'packages-import-apps',
      severity: 'error',
      comment: 'Packages are used by the apps, never the other way round.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
