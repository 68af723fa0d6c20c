import { describe, expect, it } from 'vitest';
import { renderMarkdown, sanitizeHtml } from './html.ts';

describe('sanitizeHtml', () => {
  it('keeps formatting and safe links', () => {
    expect(sanitizeHtml('<p><strong>Fast</strong> <a href="https://x.dev">docs</a></p>')).toBe(
      '<p><strong>Fast</strong> <a href="https://x.dev">docs</a></p>',
    );
  });

  it('drops scripts, handlers, styles and dangerous URLs', () => {
    const out = sanitizeHtml(
      '<p onclick="steal()" style="color:red">hi<script>alert(1)</script></p><a href="javascript:alert(1)">x</a><img src="data:text/html,x" onerror="x()"><iframe src="https://evil"></iframe>',
    );
    expect(out).not.toMatch(/script|onclick|onerror|style=|javascript:|data:|iframe/i);
    expect(out).toContain('hi');
  });
});

describe('renderMarkdown', () => {
  it('gives headings ids and opens external links safely', () => {
    const html = renderMarkdown('## Quick Start\n\nSee [the site](https://example.com) and `npm ci`.');
    expect(html).toContain('<h2 id="quick-start">Quick Start</h2>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">the site</a>');
    expect(html).toContain('<code>npm ci</code>');
  });

  it('gives repeated headings -1, -2 ids, and each document its own count', () => {
    const source = '## Setup\n\n### Setup\n\n## Setup\n\n## Setup 1';
    const ids = (html: string) => [...html.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]);
    expect(ids(renderMarkdown(source))).toEqual(['setup', 'setup-1', 'setup-2', 'setup-1-1']);
    expect(ids(renderMarkdown('## Setup'))).toEqual(['setup']);
  });

  it('makes ids of non-ASCII titles, code and entities the way GitHub does', () => {
    expect(renderMarkdown('## Über die Lizenz')).toContain('<h2 id="über-die-lizenz">Über die Lizenz</h2>');
    expect(renderMarkdown('## Настройка проекта')).toContain('id="настройка-проекта"');
    expect(renderMarkdown('## 快速开始')).toContain('<h2 id="快速开始">');
    expect(renderMarkdown('## Q&A: `npm ci` <em>fast</em>')).toContain('<h2 id="qa-npm-ci-fast">');
    expect(renderMarkdown('## C++ & "Rust"')).toContain('<h2 id="c--rust">');
    expect(renderMarkdown('## !!!')).toContain('<h2>!!!</h2>');
  });

  it('sanitises raw HTML inside Markdown', () => {
    expect(renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>')).not.toMatch(/script|onerror/);
  });
});
