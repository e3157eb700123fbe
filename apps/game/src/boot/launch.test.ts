import { describe, expect, it } from 'vitest';
import { sessionIdOf, sessionStateOf, takeToken } from './launch.ts';

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

describe('sessionStateOf', () => {
  it('reads what the server knew of the session from data-session', () => {
    expect(sessionStateOf('ok')).toEqual({ known: true, ended: null });
    expect(sessionStateOf('ended')).toEqual({ known: true, ended: 'SESSION_ENDED' });
    expect(sessionStateOf('excluded')).toEqual({ known: true, ended: 'PLAYER_EXCLUDED' });
    for (const unknown of ['expired', undefined, '', 'toString', '__proto__'])
      expect(sessionStateOf(unknown)).toEqual({ known: false, ended: null });
  });
});
