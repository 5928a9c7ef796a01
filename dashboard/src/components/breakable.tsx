import { Fragment } from 'preact';

// Where a URL or host:port may wrap: after these characters, as a person would break it.
const BREAK_AFTER = /([/.?&=#:@-])/;

/**
 * Text such as a URL with line-break opportunities after its separators, so a long target wraps
 * at `/`, `.` or `?` on a narrow screen instead of letter by letter.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(BREAK_AFTER);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {BREAK_AFTER.test(part) ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
