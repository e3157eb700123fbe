import { describe, expect, it } from 'vitest';
import { sessionIdOf, takeToken } from './launch.ts';

describe('takeToken', () => {
  it('takes the token off the gameUrl and keeps the rest', () => {
    expect(takeToken('http://127.0.0.1:8080/play/abc?token=ses_x-y&lang=pt#top')).toEqual({
      token: 'ses_x-y',
      cleanUrl: '/play/abc?lang=pt#top',
    });
    expect(takeToken('http://127.0.0.1:8080/play/abc?token=ses_1')).toEqual({
      token: 'ses_1',
      cleanUrl: '/play/abc',
    });
  });

  it('has no token after a reload without it', () => {
    expect(takeToken('http://127.0.0.1:8080/play/abc')).toEqual({ token: null, cleanUrl: '/play/abc' });
    expect(takeToken('http://127.0.0.1:8080/play/abc?token=')).toEqual({
      token: null,
      cleanUrl: '/play/abc',
    });
  });
});

describe('sessionIdOf', () => {
  it('reads the session id from the path', () => {
    expect(sessionIdOf('/play/01a2-xyz')).toBe('01a2-xyz');
    expect(sessionIdOf('/somewhere/else')).toBe('');
  });
});
