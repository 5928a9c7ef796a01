import type { PeerCertificate } from 'node:tls';
import { ProbeFailure } from './probe.js';

const DAY_MS = 86_400_000;

/** Whole days from `now` until the certificate's `valid_to` (negative once expired). */
export function daysUntilExpiry(certificate: PeerCertificate, now: number): number {
  return Math.floor((Date.parse(certificate.valid_to) - now) / DAY_MS);
}

/** A date as messages show it: 2026-11-28. */
export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Throws when the certificate is not yet valid or has expired (`certificate expired on 2026-11-22`). */
export function assertCertificateCurrent(certificate: PeerCertificate, now: number): void {
  const notBefore = Date.parse(certificate.valid_from);
  const notAfter = Date.parse(certificate.valid_to);
  if (Number.isNaN(notAfter)) throw new ProbeFailure('the certificate has no readable expiry date');
  if (now < notBefore) throw new ProbeFailure(`certificate not valid before ${isoDate(notBefore)}`);
  if (now >= notAfter) throw new ProbeFailure(`certificate expired on ${isoDate(notAfter)}`);
}

/**
 * Throws when the certificate is not yet valid, has expired, or expires within `thresholdDays`
 * (`certificate expires in 5 days (2026-11-28), threshold 14 days`); returns the days left.
 */
export function assertCertificateTime(certificate: PeerCertificate, thresholdDays: number, now: number): number {
  assertCertificateCurrent(certificate, now);
  const notAfter = Date.parse(certificate.valid_to);
  const date = isoDate;
  const days = daysUntilExpiry(certificate, now);
  if (days < thresholdDays) {
    throw new ProbeFailure(`certificate expires in ${days} days (${date(notAfter)}), threshold ${thresholdDays} days`);
  }
  return days;
}
