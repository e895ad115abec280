import type { Ability, FortnoxSetting, Message, User } from '@portal/contracts';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { Dropdown } from '../../../components/ui/dropdown';
import {
  CloseIcon,
  type IconComponent,
  LogoutIcon,
  MailIcon,
  MenuIcon,
  UserIcon,
} from '../../../components/ui/icons';
import { LanguageFlags } from '../../../components/ui/language-flags';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import {
  buildMenu,
  countUnreadMessages,
  latestMessages,
  type MenuAction,
  type MenuLink,
} from '../menu-model';

/** How many messages the dropdown lists. */
const LATEST_MESSAGES = 5;

export interface TopMenuProps {
  user: User;
  abilities: readonly Ability[];
  fortnoxSetting: FortnoxSetting | null;
  messages: readonly Message[];
  brand: string;
  onAction: (action: MenuAction) => void;
  onOpenAccount: () => void;
  onLogout: () => void;
}

/** The top menu of spec §2, §6. Entries come from the pure buildMenu(). */
export function TopMenu({
  user,
  abilities,
  fortnoxSetting,
  messages,
  brand,
  onAction,
  onOpenAccount,
  onLogout,
}: TopMenuProps) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const navId = useId();
  const menu = buildMenu({ abilities, fortnoxSetting });
  const unread = countUnreadMessages(messages, user.userID);

  // Spec §2: the mobile menu closes on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of location.
  useEffect(() => setMobileOpen(false), [location.pathname]);

  function renderItem(item: MenuLink, close: () => void) {
    const note = item.noteKey ? <span className="dropdown__note">{t(item.noteKey)}</span> : null;
    if (item.action) {
      const action = item.action;
      return (
        <li key={item.id}>
          <button
            type="button"
            className="dropdown__item"
            onClick={() => {
              close();
              onAction(action);
            }}
          >
            {t(item.labelKey)}
          </button>
        </li>
      );
    }
    return (
      <li key={item.id}>
        <NavLink className="dropdown__item" to={item.to ?? '/'} onClick={close}>
          {t(item.labelKey)}
          {note}
        </NavLink>
      </li>
    );
  }

  return (
    <header className="topbar">
      <div className="topbar__inner">
        <Link to={paths.home.getHref()} className="topbar__brand">
          {brand}
        </Link>
        <button
          type="button"
          className="topbar__hamburger"
          aria-expanded={mobileOpen}
          aria-controls={navId}
          aria-label={mobileOpen ? t('layout:menu.close_menu') : t('layout:menu.open_menu')}
          onClick={() => setMobileOpen((open) => !open)}
        >
          {mobileOpen ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
        </button>
        <nav
          id={navId}
          aria-label={t('layout:menu.label')}
          className={['topbar__nav', mobileOpen && 'topbar__nav--open'].filter(Boolean).join(' ')}
        >
          <ul className="topbar__list">
            {menu.map((group) =>
              group.to ? (
                <li key={group.id}>
                  <NavLink className="topbar__link" to={group.to} end>
                    {t(group.labelKey)}
                  </NavLink>
                </li>
              ) : (
                <li key={group.id}>
                  <Dropdown label={t(group.labelKey)}>
                    {(close) => (
                      <ul className="dropdown__list">{group.items.map((item) => renderItem(item, close))}</ul>
                    )}
                  </Dropdown>
                </li>
              ),
            )}
          </ul>
          <div className="topbar__tools">
            <Dropdown
              align="end"
              showChevron={false}
              ariaLabel={t('layout:messages.button', { count: unread })}
              label={
                <span className="topbar__icon">
                  <MailIcon size={20} />
                  {unread > 0 && (
                    <span className="badge" aria-hidden="true">
                      {unread}
                    </span>
                  )}
                </span>
              }
            >
              {(close) => (
                <div className="messages-panel">
                  <h2 className="messages-panel__title">{t('layout:messages.title')}</h2>
                  {messages.length === 0 ? (
                    <p className="muted">{t('layout:messages.empty')}</p>
                  ) : (
                    <ul className="messages-panel__list">
                      {latestMessages(messages, LATEST_MESSAGES).map((message) => (
                        <li key={message.messageID}>
                          <Link
                            className={[
                              'messages-panel__item',
                              !message.read && 'messages-panel__item--unread',
                            ]
                              .filter(Boolean)
                              .join(' ')}
                            to={paths.invoiceMessages.getHref(message.invoiceID ?? undefined)}
                            onClick={close}
                          >
                            <span className="messages-panel__subject">{message.title}</span>
                            <span className="messages-panel__meta">
                              {message.author} · {formatDate(message.date, i18n.language)}
                              {message.invoiceNumber
                                ? ` · ${t('layout:messages.invoice', { number: message.invoiceNumber })}`
                                : ''}
                            </span>
                          </Link>
                        </li>
                      ))}
                    </ul>
                  )}
                  <Link className="messages-panel__all" to={paths.invoiceMessages.getHref()} onClick={close}>
                    {t('layout:messages.all')}
                  </Link>
                </div>
              )}
            </Dropdown>
            <Dropdown
              align="end"
              ariaLabel={t('layout:user_menu.button', { name: `${user.firstName} ${user.lastName}` })}
              label={
                <span className="topbar__user">
                  <UserIcon size={18} />
                  <span className="topbar__user-name">{user.firstName}</span>
                </span>
              }
            >
              {(close) => (
                <ul className="dropdown__list">
                  <UserMenuItem
                    icon={UserIcon}
                    label={t('layout:user_menu.account')}
                    close={close}
                    onClick={onOpenAccount}
                  />
                  <UserMenuItem
                    icon={LogoutIcon}
                    label={t('layout:user_menu.logout')}
                    close={close}
                    onClick={onLogout}
                  />
                </ul>
              )}
            </Dropdown>
            <LanguageFlags />
          </div>
        </nav>
      </div>
    </header>
  );
}

/** An item of the user menu: an icon and a label on one button, which closes the menu and acts. */
function UserMenuItem({
  icon: Icon,
  label,
  close,
  onClick,
}: {
  icon: IconComponent;
  label: string;
  close: () => void;
  onClick: () => void;
}) {
  return (
    <li>
      <button
        type="button"
        className="dropdown__item"
        onClick={() => {
          close();
          onClick();
        }}
      >
        <Icon size={16} /> {label}
      </button>
    </li>
  );
}
