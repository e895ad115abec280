import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';

export interface TabItem<K extends string = string> {
  key: K;
  label: string;
  content: ReactNode;
}

export interface TabsProps<K extends string> {
  tabs: readonly TabItem<K>[];
  /** Controlled active tab; the first tab is active by default (spec §2). */
  activeKey?: K;
  onChange?: (key: K) => void;
  centered?: boolean;
  noMargin?: boolean;
  /** Names the tab list for assistive technology. */
  'aria-label'?: string;
}

/** A tab strip with the WAI-ARIA tabs pattern: arrow keys, Home and End move between tabs. */
export function Tabs<K extends string>({
  tabs,
  activeKey,
  onChange,
  centered = false,
  noMargin = false,
  'aria-label': ariaLabel,
}: TabsProps<K>) {
  const baseId = useId();
  const [ownKey, setOwnKey] = useState<K | undefined>(tabs[0]?.key);
  const current = activeKey ?? ownKey;
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const listRef = useRef<HTMLDivElement>(null);

  function select(key: K, focus = false) {
    setOwnKey(key);
    onChange?.(key);
    if (focus) refs.current.get(key)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = tabs.length - 1;
    const next: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const target = next[event.key];
    const tab = target === undefined ? undefined : tabs[target];
    if (tab) {
      event.preventDefault();
      select(tab.key, true);
    }
  }

  const active = tabs.find((tab) => tab.key === current) ?? tabs[0];
  const activeKeyShown = active?.key;
  // Tabs that do not fit scroll sideways on one line (a phone, issue #17): the chosen one is brought into
  // view, also when it was chosen elsewhere (a link to /invoices?filter=overdue).
  useEffect(() => {
    const list = listRef.current;
    const tab = activeKeyShown === undefined ? undefined : refs.current.get(activeKeyShown);
    if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
    const frame = list.getBoundingClientRect();
    const box = tab.getBoundingClientRect();
    if (box.left < frame.left || box.right > frame.right) {
      list.scrollLeft += box.left - frame.left - (frame.width - box.width) / 2;
    }
  }, [activeKeyShown]);
  return (
    <div className={['tabs', noMargin && 'tabs--no-margin'].filter(Boolean).join(' ')}>
      <div
        ref={listRef}
        role="tablist"
        aria-label={ariaLabel}
        className={['tabs__list', centered && 'tabs__list--centered'].filter(Boolean).join(' ')}
      >
        {tabs.map((tab, index) => {
          const selected = tab.key === active?.key;
          return (
            <button
              key={tab.key}
              ref={(el) => {
                if (el) refs.current.set(tab.key, el);
                else refs.current.delete(tab.key);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.key}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel-${tab.key}`}
              tabIndex={selected ? 0 : -1}
              className={['tabs__tab', selected && 'tabs__tab--active'].filter(Boolean).join(' ')}
              onClick={() => select(tab.key)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {active && (
        <div
          role="tabpanel"
          id={`${baseId}-panel-${active.key}`}
          aria-labelledby={`${baseId}-tab-${active.key}`}
          className="tabs__panel"
        >
          {active.content}
        </div>
      )}
    </div>
  );
}
