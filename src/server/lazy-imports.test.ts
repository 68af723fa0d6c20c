import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Packages a serving process seldom needs, loaded on first use (`await import(...)`) so that they
 * cost neither heap nor start-up time until then (server memory after load).
 */
const LOADED_ON_FIRST_USE = [
  '@simplewebauthn/server', // passkey ceremonies
  'nodemailer', // the first mail
  'otplib', // two-step codes
  'qrcode', // two-step setup
  'openid-client', // Google sign-in
  '@octokit/rest', // GitHub delivery
  'prom-client', // METRICS_TOKEN set
  'pdfkit', // the first sandbox invoice
];

const serverDir = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** The packages a source file imports statically (type-only imports aside). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^import\s+(?!type\s)[^;]*?\bfrom\s+'([^']+)'/gm)) found.push(match[1]!);
  for (const match of source.matchAll(/^import\s+'([^']+)'/gm)) found.push(match[1]!);
  return found;
}

const isLazyPackage = (specifier: string) =>
  LOADED_ON_FIRST_USE.some((name) => specifier === name || specifier.startsWith(`${name}/`));

describe('packages loaded on first use', () => {
  it('tells a static import from a type-only one', () => {
    const source = [
      "import type { Transporter } from 'nodemailer';",
      "import {\n  generateSecret,\n  verify,\n} from 'otplib';",
      "import QRCode from 'qrcode';",
      "import 'prom-client';",
      "const later = () => import('openid-client');",
    ].join('\n');
    expect(staticImports(source).filter(isLazyPackage)).toEqual(['otplib', 'qrcode', 'prom-client']);
  });

  it('are imported statically by no server module (metrics.ts, loaded only with METRICS_TOKEN, aside)', () => {
    const offenders = sourceFiles(serverDir)
      .filter((file) => path.relative(serverDir, file) !== 'metrics.ts')
      .flatMap((file) =>
        staticImports(readFileSync(file, 'utf8'))
          .filter(isLazyPackage)
          .map((specifier) => `${path.relative(serverDir, file)}: ${specifier}`),
      );
    expect(offenders).toEqual([]);
  });

  it('metrics.ts, which imports prom-client, is itself imported statically by no server module', () => {
    const offenders = sourceFiles(serverDir).filter((file) =>
      staticImports(readFileSync(file, 'utf8')).some((specifier) => /(^|\/)metrics\.ts$/.test(specifier)),
    );
    expect(offenders.map((file) => path.relative(serverDir, file))).toEqual([]);
  });
});
