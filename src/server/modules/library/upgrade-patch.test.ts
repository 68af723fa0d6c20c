import { describe, expect, it } from 'vitest';
import { makeUpgradePatch } from './upgrade-patch.ts';

type File = { mode: number; sha256: string; text: string | null; blob: string | null };
const text = (body: string, mode = 0o100644): File => ({
  mode,
  sha256: `sha-${body}`,
  text: body,
  blob: `b${body.length}`,
});
const binary = (sha: string): File => ({ mode: 0o100644, sha256: sha, text: null, blob: null });

describe('makeUpgradePatch', () => {
  const before = new Map([
    ['README.md', text('one\ntwo\n')],
    ['gone.txt', text('bye\n')],
    ['same.txt', text('same\n')],
    ['logo.png', binary('a')],
    ['run.sh', text('echo\n')],
  ]);
  const after = new Map([
    ['README.md', text('one\nthree\n')],
    ['new.txt', text('hi\n')],
    ['same.txt', text('same\n')],
    ['logo.png', binary('b')],
    ['run.sh', text('echo\n', 0o100755)],
  ]);
  const patch = makeUpgradePatch(before, after, { kit: 'k', from: '1.0.0', to: '1.1.0' });

  it('writes git headers for changed, added and removed files, and leaves unchanged ones out', () => {
    expect(patch).toContain(
      'diff --git a/README.md b/README.md\nindex b8..b10 100644\n--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n',
    );
    expect(patch).toContain(
      'diff --git a/new.txt b/new.txt\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..b3\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+hi\n',
    );
    expect(patch).toContain('diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n');
    expect(patch).toContain('diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n');
    expect(patch).not.toContain('same.txt');
  });

  it('lists binary files in the comment header instead of diffing them', () => {
    expect(patch.startsWith('# Upgrade patch: k 1.0.0 -> 1.1.0 (5 files changed)\n')).toBe(true);
    expect(patch).toContain('#   logo.png (changed, binary)');
    expect(patch).not.toContain('diff --git a/logo.png');
  });
});
