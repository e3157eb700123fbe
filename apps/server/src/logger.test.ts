import { describe, expect, it } from 'vitest';
import { createLogger, withLogContext } from './logger.ts';

function capture(level: Parameters<typeof createLogger>[0] = 'debug') {
  const lines: string[] = [];
  const logger = createLogger(level, (line) => lines.push(line));
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, parsed };
}

describe('the logger', () => {
  it('writes one JSON object per line with time, level, msg and the fields', () => {
    const { logger, lines, parsed } = capture();
    logger.info('round closed', { roundId: 'r1', attempts: 2 });
    expect(lines).toHaveLength(1);
    const [line] = parsed();
    expect(line).toMatchObject({ level: 'info', msg: 'round closed', roundId: 'r1', attempts: 2 });
    expect(Number.isNaN(Date.parse(String(line?.time)))).toBe(false);
  });

  it('honours the level', () => {
    const { logger, parsed } = capture('warn');
    logger.debug('a');
    logger.info('b');
    logger.warn('c');
    logger.error('d');
    expect(parsed().map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'c'],
      ['error', 'd'],
    ]);
  });

  it('redacts token, key, password and secret fields, and tokens inside text', () => {
    const { logger, lines } = capture();
    logger.info('oops', {
      apiKey: 'rsp_abcdefghijklmnopqrstuvwxyz',
      nested: { signatureToken: 'hunter2hunter2', password: 'pw', clientSecret: 's' },
      url: '/play/abc?token=ses_SECRETSECRETSECRETSECRET&lang=pt',
      error: 'bad key usr_0123456789abcdefghij in the body',
    });
    const text = lines.join('\n');
    for (const secret of ['rsp_abc', 'hunter2', '"pw"', 'SECRETSECRET', 'usr_0123']) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      apiKey: '[redacted]',
      url: '/play/abc?token=[redacted]&lang=pt',
    });
  });

  it('adds the context fields to every line logged inside withLogContext, however deep', async () => {
    const { logger, parsed } = capture();
    await withLogContext({ reqId: 'req-1' }, async () => {
      await Promise.resolve();
      logger.info('inside');
      withLogContext({ sessionId: 's1' }, () => logger.info('nested'));
    });
    logger.info('outside');
    expect(parsed().map(({ msg, reqId, sessionId }) => ({ msg, reqId, sessionId }))).toEqual([
      { msg: 'inside', reqId: 'req-1', sessionId: undefined },
      { msg: 'nested', reqId: 'req-1', sessionId: 's1' },
      { msg: 'outside', reqId: undefined, sessionId: undefined },
    ]);
  });
});
