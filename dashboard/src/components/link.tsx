import type { ComponentChildren, JSX } from 'preact';
import { isPlainClick, navigate } from '../lib/router';

type Props = Omit<JSX.AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'onClick'> & {
  href: string;
  children: ComponentChildren;
  /** Runs before the router follows the link. */
  onClick?(): void;
};

/** An ordinary link that the router follows without reloading the page. */
export function Link({ href, children, onClick, ...rest }: Props) {
  const follow = (event: MouseEvent) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    onClick?.();
    navigate(href);
  };
  return (
    <a href={href} onClick={follow} {...rest}>
      {children}
    </a>
  );
}
