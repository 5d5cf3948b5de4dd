@TAP@ -p1 -e 'probe begin { x = (a)[1]->b; y = &f(1)->c; v = f(1)->c$$; z = a[1]->q; w = (a ? b : c)->d->e[2]; u = p->next->if }'
