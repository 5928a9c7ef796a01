import type { ComponentChildren, JSX } from 'preact';
import { isPlainClick, navigate } from '../lib/router';

type Props = Omit<JSX.AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string; children: ComponentChildren };

/** An ordinary link that the router follows without reloading the page. */
export function Link({ href, children, ...rest }: Props) {
  const onClick = (event: MouseEvent) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
