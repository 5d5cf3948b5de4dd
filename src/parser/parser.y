/* Placeholder grammar: replaced by the real one. */
%define api.pure full
%code provides { int tap_placeholder_parse(void); }
%{
static int yylex(void *lval) { (void)lval; return 0; }
static void yyerror(const char *msg) { (void)msg; }
%}
%%
script: %empty ;
%%
int tap_placeholder_parse(void) { return yyparse(); }
