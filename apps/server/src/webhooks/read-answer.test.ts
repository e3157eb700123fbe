import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSuccessCode, readAnswer } from './read-answer.ts';

const code = fc.option(fc.integer({ min: 100, max: 599 }), { nil: null });
const failure = fc.option(fc.string({ minLength: 1 }), { nil: null });

describe('readAnswer', () => {
  it('a 2xx, and only a 2xx, is a success, with no message', () => {
    for (const status of [200, 201, 202, 204, 299]) {
      expect(readAnswer(status, null)).toEqual({ success: true, gone: false, errorMessage: null });
    }
    for (const status of [100, 199, 300, 304, 400, 404, 500, 503]) {
      expect(readAnswer(status, null).success).toBe(false);
    }
    fc.assert(
      fc.property(code, failure, (status, why) => {
        expect(readAnswer(status, why).success).toBe(status !== null && status >= 200 && status < 300);
        expect(isSuccessCode(status)).toBe(readAnswer(status, why).success);
      }),
    );
  });

  it('a redirect is a failure that says it was not followed', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      expect(readAnswer(status, null)).toEqual({
        success: false,
        gone: false,
        errorMessage: `the receiver answered ${status}; redirects are not followed`,
      });
    }
  });

  it('410 Gone, and only 410, asks for the webhook to be disabled', () => {
    expect(readAnswer(410, null)).toEqual({
      success: false,
      gone: true,
      errorMessage: 'the receiver answered 410 Gone: the webhook is disabled',
    });
    fc.assert(
      fc.property(code, failure, (status, why) => {
        expect(readAnswer(status, why).gone).toBe(status === 410);
      }),
    );
  });

  it('another status is a failure naming the status', () => {
    expect(readAnswer(500, null).errorMessage).toBe('the receiver answered 500');
    expect(readAnswer(404, null).errorMessage).toBe('the receiver answered 404');
    expect(readAnswer(199, null).errorMessage).toBe('the receiver answered 199');
  });

  it('no answer is a failure whose message is why none came', () => {
    expect(readAnswer(null, 'no answer within 15000 ms')).toEqual({
      success: false,
      gone: false,
      errorMessage: 'no answer within 15000 ms',
    });
    expect(readAnswer(null, null)).toEqual({ success: false, gone: false, errorMessage: null });
  });

  it('the message is the failure when there is one, else says why the status failed', () => {
    fc.assert(
      fc.property(code, failure, (status, why) => {
        const { success, errorMessage } = readAnswer(status, why);
        if (why !== null) expect(errorMessage).toBe(why);
        else if (status === null || success) expect(errorMessage).toBeNull();
        else expect(errorMessage).toContain(`the receiver answered ${status}`);
      }),
    );
  });
});
