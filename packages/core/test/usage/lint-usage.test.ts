// lintRobotsTxt on usage-preference lines (Content-Usage: draft-ietf-aipref-attach-05 §3 with
// draft-ietf-aipref-vocab-08; Content-Signal: draft-romm-aipref-contentsignals-00).

import { lintRobotsTxt, type RobotsDiagnostic } from '@politely/core';
import { describe, expect, it } from 'vitest';

const found = (diagnostics: readonly RobotsDiagnostic[]) => diagnostics.map((d) => [d.line, d.code]);
const lint = (...lines: string[]) => lintRobotsTxt(lines.join('\n'));

describe('lintRobotsTxt: usage preferences', () => {
  it('valid Content-Usage and Content-Signal lines are not unknown directives', () => {
    expect(
      lint(
        'User-Agent: *',
        'Allow: /',
        'Disallow: /never/',
        'Content-Usage: train-ai=n',
        'Content-Usage: /ai-ok/ train-ai=y',
        'Content-Usage: / search=y, ai-use=n',
        'content-signal: search=yes, ai-input=no, ai-train=no',
      ),
    ).toEqual([]);
  });

  it('usage-outside-group: before the first user-agent line', () => {
    const diagnostics = lint('Content-Usage: train-ai=n', 'Content-Signal: ai-train=no', 'User-agent: *', 'Allow: /');
    expect(found(diagnostics)).toEqual([
      [1, 'usage-outside-group'],
      [2, 'usage-outside-group'],
    ]);
    expect(diagnostics[0]).toMatchObject({ severity: 'warning' });
    expect(diagnostics[0]?.message).toContain('`Content-Usage`');
  });

  it('invalid-usage-preference: not a dictionary, or a path with no preference', () => {
    const diagnostics = lint('User-agent: *', 'Content-Usage: Train-AI=n', 'Content-Usage: /docs/', 'Content-Signal:');
    expect(found(diagnostics)).toEqual([
      [2, 'invalid-usage-preference'],
      [3, 'invalid-usage-preference'],
      [4, 'invalid-usage-preference'],
    ]);
    expect(diagnostics[1]?.message).toContain('/docs/');
  });

  it('unknown-usage-category and invalid-usage-value', () => {
    const diagnostics = lint(
      'User-agent: *',
      'Content-Usage: train-genai=n, train-ai=no',
      'Content-Signal: ai_train=no, search=maybe',
    );
    expect(found(diagnostics)).toEqual([
      [2, 'unknown-usage-category'],
      [2, 'invalid-usage-value'],
      [3, 'unknown-usage-category'],
      [3, 'invalid-usage-value'],
    ]);
    expect(diagnostics[0]?.message).toContain('draft-ietf-aipref-vocab-08');
  });

  it('other non-standard keys are still reported as before', () => {
    expect(found(lint('User-agent: *', 'Content-Usages: train-ai=n'))).toEqual([[2, 'unknown-directive']]);
  });
});
