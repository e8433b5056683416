/**
 * How timestamps are written. `formatTime` is `metav1.Time`'s JSON form (RFC 3339), used for
 * every timestamp dcctl writes into status, events and acknowledgements. `formatGoTime` is
 * Go's `time.Time.String()` for the deprecated deployer-pod timestamp annotations
 * (`openshift.io/deployer-pod.{created,started,completed}-at`), which OpenShift writes with
 * `metav1.Time.String()` rather than RFC 3339. Tools that parse those annotations expect
 * `2024-01-02 03:04:05 +0000 UTC`.
 */

/**
 * RFC 3339 in UTC. `seconds` (the default) is `metav1.Time`'s precision, what the API server
 * stores: `2024-05-01T10:00:00Z`. `milliseconds` keeps a non-zero fraction
 * (`2024-05-01T10:00:00.123Z`), for normalizing Dates parsed from `metav1.MicroTime` fields
 * without losing what they hold.
 */
export function formatTime(d: Date, precision: 'seconds' | 'milliseconds' = 'seconds'): string {
  const iso = d.toISOString();
  if (precision === 'seconds' || iso.endsWith('.000Z')) return `${iso.slice(0, -5)}Z`;
  return iso;
}

/** What Go prints for the zero `time.Time` (an unset `metav1.Time`). */
export const GoZeroTime = '0001-01-01 00:00:00 +0000 UTC';

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * Formats a timestamp the way Go's `Time.String()` does for a time in UTC:
 * `YYYY-MM-DD HH:MM:SS[.fraction] +0000 UTC`, the fraction printed only when non-zero and without
 * trailing zeros (layout `.999999999`). API server timestamps have second precision, so they never
 * carry a fraction.
 *
 * Go converts decoded times to the process's local zone; the controller runs in a container whose
 * zone is UTC, so UTC is what OpenShift clusters show and what this always prints.
 *
 * Strings are parsed as RFC 3339 so nanosecond fractions survive (a `Date` keeps milliseconds).
 * `undefined` yields Go's zero time, as an unset `metav1.Time` does; an unparsable string is
 * returned unchanged rather than failing the sync.
 */
export function formatGoTime(value: Date | string | undefined | null): string {
  if (value === undefined || value === null) return GoZeroTime;
  if (typeof value === 'string') {
    const match = rfc3339.exec(value);
    if (!match) {
      const parsed = new Date(value);
      return Number.isNaN(parsed.getTime()) ? value : formatDate(parsed, fractionOfDate(parsed));
    }
    const [, y, mo, d, h, mi, s, frac, zone] = match;
    const offsetMinutes = zoneOffsetMinutes(zone!);
    const epoch = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMinutes * 60_000;
    return formatDate(new Date(epoch), (frac ?? '').slice(0, 9));
  }
  if (Number.isNaN(value.getTime())) return GoZeroTime;
  return formatDate(value, fractionOfDate(value));
}

function zoneOffsetMinutes(zone: string): number {
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const [hh, mm] = zone.slice(1).split(':');
  return sign * (Number(hh) * 60 + Number(mm));
}

function fractionOfDate(date: Date): string {
  return pad(date.getUTCMilliseconds(), 3);
}

function formatDate(date: Date, fractionDigits: string): string {
  const fraction = fractionDigits.replace(/0+$/, '');
  const year = date.getUTCFullYear();
  const datePart = `${pad(year, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const timePart = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return `${datePart} ${timePart}${fraction ? `.${fraction}` : ''} +0000 UTC`;
}
