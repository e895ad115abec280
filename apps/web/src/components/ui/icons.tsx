import type { ReactNode, SVGProps } from 'react';

/** Small inline icons (no icon font: the CSP allows only same-origin styles). Decorative by default. */
export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number };
export type IconComponent = (props: IconProps) => React.JSX.Element;

function SvgIcon({ size = 16, children, ...rest }: IconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

/**
 * An icon component that draws `shape` (its paths on the 24 × 24 grid) in the common frame. Its calls are
 * marked pure so that a bundle keeps only the icons it uses.
 */
function icon(shape: ReactNode): IconComponent {
  return function Icon(props: IconProps) {
    return <SvgIcon {...props}>{shape}</SvgIcon>;
  };
}

export const CloseIcon = /* @__PURE__ */ icon(<path d="M6 6l12 12M18 6L6 18" />);

export const MenuIcon = /* @__PURE__ */ icon(<path d="M4 6h16M4 12h16M4 18h16" />);

export const ChevronDownIcon = /* @__PURE__ */ icon(<path d="M6 9l6 6 6-6" />);

export const MailIcon = /* @__PURE__ */ icon(
  <>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 7l9 6 9-6" />
  </>,
);

export const UserIcon = /* @__PURE__ */ icon(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4 4-6 8-6s8 2 8 6" />
  </>,
);

export const WarningIcon = /* @__PURE__ */ icon(
  <>
    <path d="M12 3l10 18H2L12 3z" />
    <path d="M12 10v4M12 17.5v.5" />
  </>,
);

export const CheckIcon = /* @__PURE__ */ icon(<path d="M5 12l5 5 9-10" />);

export const LogoutIcon = /* @__PURE__ */ icon(<path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10" />);

export const LockIcon = /* @__PURE__ */ icon(
  <>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 018 0v4" />
  </>,
);

export const PlusIcon = /* @__PURE__ */ icon(<path d="M12 5v14M5 12h14" />);

export const SearchIcon = /* @__PURE__ */ icon(
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="M20 20l-3.5-3.5" />
  </>,
);

/** The sort mark of a column header: both arrows when unsorted, one when sorted. */
export function SortIcon({ direction, ...props }: IconProps & { direction: 'asc' | 'desc' | 'none' }) {
  return (
    <SvgIcon {...props}>
      {direction !== 'desc' && <path d="M8 10l4-4 4 4" />}
      {direction !== 'asc' && <path d="M8 14l4 4 4-4" />}
    </SvgIcon>
  );
}
