import { describe, expect, it } from 'vitest';
import { DEFAULT_ALLOWED_ORIGINS, isLoopbackAddress, originAllowed } from './origins.js';

describe('originAllowed', () => {
  it('accepts local origins on any port by default', () => {
    for (const origin of ['http://localhost:5173', 'https://localhost', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
      expect(originAllowed(origin, DEFAULT_ALLOWED_ORIGINS)).toBe(true);
    }
  });

  it('refuses look-alikes and foreign origins', () => {
    for (const origin of [
      'http://evil.example',
      'http://localhost.evil.example:80',
      'http://127.0.0.1.nip.io',
      'null',
      'file://',
    ]) {
      expect(originAllowed(origin, DEFAULT_ALLOWED_ORIGINS)).toBe(false);
    }
  });

  it('supports user patterns with a wildcard subdomain and port', () => {
    expect(originAllowed('https://app.dev.example.com:8443', ['https://*.example.com:*'])).toBe(true);
    expect(originAllowed('https://example.com.evil.io', ['https://*.example.com:*'])).toBe(false);
    expect(originAllowed('http://myapp.test:3000', ['http://myapp.test:3000'])).toBe(true);
    expect(originAllowed('http://myapp.test:3001', ['http://myapp.test:3000'])).toBe(false);
  });

  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['10.0.0.2', '192.168.1.5', '::ffff:10.0.0.1'].some(isLoopbackAddress)).toBe(false);
  });
});
