/**
 * The catalog's namespaces that the client components below it read (useTranslations), with the page's
 * language, time zone and clock: only those, so a page's payload carries no more of the catalog than it shows.
 * A namespace may be a nested one (`admin.clientForm`): only that part of `admin` is sent.
 */
import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import type { ReactNode } from 'react';
import type { NamespaceKeys, NestedKeyOf } from 'use-intl/core';
import type { Messages } from '@/lib/i18n/messages';

type Tree = { [key: string]: string | Tree };

/** `tree` with only the parts `paths` name, each path's nesting kept. */
function pick(tree: Tree, paths: string[]): Tree {
  const picked: Tree = {};
  for (const path of paths) {
    const keys = path.split('.');
    let from: string | Tree | undefined = tree;
    let to = picked;
    for (const [i, key] of keys.entries()) {
      from = typeof from === 'object' ? from[key] : undefined;
      if (from === undefined) break;
      if (i === keys.length - 1) to[key] = from;
      else to = (to[key] ??= {}) as Tree;
    }
  }
  return picked;
}

export async function ClientMessages({ namespaces, children }: { namespaces: Array<NamespaceKeys<Messages, NestedKeyOf<Messages>>>; children: ReactNode }) {
  const messages = (await getMessages()) as unknown as Tree;
  return <NextIntlClientProvider messages={pick(messages, namespaces)}>{children}</NextIntlClientProvider>;
}
