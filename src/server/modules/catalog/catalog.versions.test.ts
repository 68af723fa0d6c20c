import { describe, expect, it } from 'vitest';
import { cleanVersion, guideFollowingVersion, highestVersion, versionProblem } from './catalog.versions.service.ts';

describe('version numbers', () => {
  it('takes semantic versions, dropping a tag’s v, and refuses the rest', () => {
    expect(cleanVersion('1.4.0')).toBe('1.4.0');
    expect(cleanVersion(' v2.0.0-beta.1 ')).toBe('2.0.0-beta.1');
    expect(cleanVersion('1.4')).toBeNull();
    expect(cleanVersion('nightly')).toBeNull();
  });

  it('orders by semver, not as text', () => {
    expect(highestVersion(['1.9.0', '1.10.0', '1.2.0'])).toBe('1.10.0');
    expect(highestVersion(['2.0.0-rc.1', '1.9.9'])).toBe('2.0.0-rc.1');
    expect(highestVersion([])).toBeUndefined();
  });

  it('asks for a number greater than every version the kit had', () => {
    const existing = ['1.2.0', '1.10.0'];
    expect(versionProblem('1.11.0', existing)).toBeNull();
    expect(versionProblem('v2.0.0', existing)).toBeNull();
    expect(versionProblem('1.9.0', existing)).toBe('version: must be greater than the latest, 1.10.0.');
    expect(versionProblem('1.10.0', existing)).toBe('version: 1.10.0 is already published.');
    expect(versionProblem('1.10.0-rc.1', existing)).toMatch(/greater than the latest/);
    expect(versionProblem('x', existing)).toMatch(/semantic version/);
    expect(versionProblem('0.0.1', [])).toBeNull();
  });
});

describe('the setup guide after a publish', () => {
  it('moves the unzip line to the new version and leaves every other line as written', () => {
    const guide =
      '## Quick Start\n\n```bash\nunzip kit-1.0.0.zip && cd kit-1.0.0\nnpm install\n```\n\nSee kit-1.0.0 notes.\n';
    expect(guideFollowingVersion(guide, 'kit-1.0.0', 'kit-1.1.0')).toBe(
      '## Quick Start\n\n```bash\nunzip kit-1.1.0.zip && cd kit-1.1.0\nnpm install\n```\n\nSee kit-1.0.0 notes.\n',
    );
    // A line that names another archive is the seller's own: it stays.
    expect(guideFollowingVersion('unzip other.zip && cd other\n', 'kit-1.0.0', 'kit-1.1.0')).toBe(
      'unzip other.zip && cd other\n',
    );
  });
});
