/* The grammar of SystemTap's script language (spec/language.md). Every
 * action is one call into build.c. Tokens come from the preprocessed token
 * array (yylex below); locations are the tokens' spans, and a nonterminal's
 * location is that of its first token. */
%define api.pure full
%define parse.error custom
%define parse.lac full
%define api.location.type {struct span}
%locations
%param {struct parser_ctx *ctx}

%code requires {
#include "base/source.h"
#include "lexer/token.h"
#include "parser/ast.h"
struct parser_ctx;
}

%code provides {
/* Parses ctx->tokens into ctx->ast; returns 0 when no syntax error was seen. */
int parser_run(struct parser_ctx *ctx);
}

%code {
#include <string.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "parser/build.h"

#define YYLLOC_DEFAULT(Cur, Rhs, N) \
    do { (Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0); } while (0)

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, struct parser_ctx *ctx);
static void yyerror(YYLTYPE *lloc, struct parser_ctx *ctx, const char *msg);
}

%union {
    const struct token *tok;
    struct expr *expr;
    struct stmt *stmt;
    struct decl *decl;
    struct probe_point *point;
    struct probe_component *component;
    struct param *param;
    struct foreach_key *key;
    enum param_type_decl type;
}

%token <tok> IDENT "identifier" NUMBER "number" STRING "string" TARGET "target variable"
%token <tok> PRETTY "'$'" EMBEDDED "embedded code"
%token <tok> AT_CAST "'@cast'" AT_VAR "'@var'" AT_ENTRY "'@entry'" AT_DEFINED "'@defined'"
%token <tok> AT_STAT "statistic operator" AT_DEFINE "'@define'" AT_MACRO "macro"
%token <tok> ARG "'$N'" ARGSTR "'@N'" ARGCOUNT "'$#'" ARGSTRCOUNT "'@#'"
%token <tok> GROUP_OPEN "'{'"
%token <tok> PP_IF "'%('" PP_THEN "'%?'" PP_ELSE "'%:'" PP_END "'%)'"
/* Keywords stay contiguous from KW_PROBE to KW_CATCH (preprocess.c relies on it). */
%token <tok> KW_PROBE "'probe'" KW_GLOBAL "'global'" KW_PRIVATE "'private'" KW_FUNCTION "'function'"
%token <tok> KW_IF "'if'" KW_ELSE "'else'" KW_FOR "'for'" KW_FOREACH "'foreach'" KW_IN "'in'"
%token <tok> KW_LIMIT "'limit'" KW_RETURN "'return'" KW_DELETE "'delete'" KW_WHILE "'while'"
%token <tok> KW_BREAK "'break'" KW_CONTINUE "'continue'" KW_NEXT "'next'" KW_STRING "'string'"
%token <tok> KW_LONG "'long'" KW_TRY "'try'" KW_CATCH "'catch'"
%token <tok> AGGREGATE "'<<<'" SHL_ASSIGN "'<<='" SHR_ASSIGN "'>>='" EQ "'=='" NE "'!='"
%token <tok> LE "'<='" GE "'>='" REGEX_MATCH "'=~'" REGEX_NOMATCH "'!~'"
%token <tok> ADD_ASSIGN "'+='" SUB_ASSIGN "'-='" MUL_ASSIGN "'*='" DIV_ASSIGN "'/='"
%token <tok> MOD_ASSIGN "'%='" AND_ASSIGN "'&='" XOR_ASSIGN "'^='" OR_ASSIGN "'|='"
%token <tok> CONCAT_ASSIGN "'.='" ANDAND "'&&'" OROR "'||'" INC "'++'" DEC "'--'" ARROW "'->'"
%token <tok> SHL "'<<'" SHR "'>>'"
%token <tok> '(' ')' '[' ']' '{' '}' ',' ';' ':' '?' '.' '+' '-' '*' '/' '%' '<' '>' '='
%token <tok> '!' '~' '&' '|' '^'

/* Lowest first. LOWEST marks the rules that end a statement or an expression
 * without a separator: stap's parser is greedy, so `return x` takes the x,
 * `x \n -y` is `x - y`, `if (a) if (b) s else t` binds else to the inner if,
 * and an optional ';' is taken when present. */
%precedence LOWEST
%precedence KW_ELSE ';'
%precedence IDENT NUMBER STRING TARGET AT_CAST AT_VAR AT_ENTRY AT_DEFINED AT_STAT '!' '~'
%right '=' ADD_ASSIGN SUB_ASSIGN MUL_ASSIGN DIV_ASSIGN MOD_ASSIGN SHL_ASSIGN SHR_ASSIGN
       AND_ASSIGN XOR_ASSIGN OR_ASSIGN CONCAT_ASSIGN AGGREGATE
%right '?'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%precedence KW_IN
%left '<' '>' LE GE EQ NE REGEX_MATCH REGEX_NOMATCH
%left SHL SHR
%left '.'
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY
%precedence INC DEC
%precedence '(' '['

%type <expr> lvalue expr expr_opt args args_opt index_list index_item target target_chain literal autocast
%type <stmt> stmt simple_stmt block stmt_list function_body foreach_stmt foreach_vars foreach_keys
%type <decl> global_list global_item function_decl
%type <point> probe_points probe_point pp_path pp_step
%type <component> pp_component
%type <param> params params_opt param
%type <key> foreach_key_list foreach_key
%type <type> type_opt
%type <tok> sort_opt pp_flag stat_opt assign_op member_name

%start script

%%

script:
  %empty
| script toplevel
;

toplevel:
  KW_GLOBAL global_list                         { (void)$2; }
| KW_PRIVATE KW_GLOBAL global_list              { build_private($3); }
| function_decl                                 { (void)$1; }
| KW_PRIVATE function_decl                      { build_private($2); }
| KW_PROBE probe_points block                   { build_probe(ctx, $1, $2, $3); }
| KW_PROBE probe_points '=' probe_points block  { build_alias(ctx, $1, $2, $3, $4, $5); }
| KW_PROBE probe_points ADD_ASSIGN probe_points block { build_alias(ctx, $1, $2, $3, $4, $5); }
| EMBEDDED                                      { build_embedded_decl(ctx, $1); }
| ';'                                           { (void)$1; }
;

global_list:
  global_item                                   { $$ = $1; }
| global_list ',' global_item                   { $$ = $1; (void)$3; }
;

global_item:
  IDENT                                         { $$ = build_global(ctx, $1, NULL, NULL, 0, 0); }
| IDENT '=' literal                             { $$ = build_global(ctx, $1, $3, NULL, 0, 0); }
| IDENT '[' NUMBER ']'                          { $$ = build_global(ctx, $1, NULL, $3, 1, 0); }
| IDENT '%'                                     { $$ = build_global(ctx, $1, NULL, NULL, 1, 1); }
| IDENT '%' '[' NUMBER ']'                      { $$ = build_global(ctx, $1, NULL, $4, 1, 1); }
;

literal:
  NUMBER                                        { $$ = build_literal(ctx, NULL, $1); }
| '-' NUMBER                                    { $$ = build_literal(ctx, $1, $2); }
| '+' NUMBER                                    { $$ = build_literal(ctx, $1, $2); }
| STRING                                        { $$ = build_literal(ctx, NULL, $1); }
;

function_decl:
  KW_FUNCTION IDENT type_opt '(' params_opt ')' function_body
                                                { $$ = build_function(ctx, $2, $3, $5, $7); }
;

type_opt:
  %empty                                        { $$ = PARAM_TYPE_NONE; }
| ':' KW_STRING                                 { $$ = PARAM_TYPE_STRING; }
| ':' KW_LONG                                   { $$ = PARAM_TYPE_LONG; }
;

params_opt:
  %empty                                        { $$ = NULL; }
| params                                        { $$ = $1; }
;

params:
  param                                         { $$ = $1; }
| params ',' param                              { $$ = AST_APPEND(struct param, $1, $3); }
;

param:
  IDENT type_opt                                { $$ = build_param(ctx, $1, $2); }
;

function_body:
  block                                         { $$ = $1; }
| EMBEDDED                                      { $$ = build_embedded_stmt(ctx, $1); }
;

/* Component names arrive as one IDENT each: the preprocessor joins the
 * adjacent pieces of `sys_*` and `**` and turns keywords such as `return`
 * and `function` into identifiers inside probe point headers. A step may be
 * a brace group of alternatives, `kernel.{trace("a"), trace("b")}`: each
 * rule yields the list of points it expands to, as SystemTap's parser. */
probe_points:
  probe_point                                   { $$ = $1; }
| probe_points ',' probe_point                  { $$ = AST_APPEND(struct probe_point, $1, $3); }
;

probe_point:
  pp_path pp_flag                               { $$ = build_probe_flags(ctx, $1, $2, NULL); }
| pp_path pp_flag KW_IF '(' expr ')'            { $$ = build_probe_flags(ctx, $1, $2, $5); }
;

pp_flag:
  %empty                                        { $$ = NULL; }
| '?'                                           { $$ = $1; }
| '!'                                           { $$ = $1; }
;

pp_path:
  pp_step                                       { $$ = $1; }
| pp_path '.' pp_step                           { $$ = build_probe_product(ctx, $1, $3); }
;

pp_step:
  pp_component                                  { $$ = build_probe_point(ctx, $1); }
| GROUP_OPEN probe_points '}'                  { $$ = $2; }
;

pp_component:
  IDENT                                         { $$ = build_probe_component(ctx, $1, NULL, NULL); }
| IDENT '(' NUMBER ')'                          { $$ = build_probe_component(ctx, $1, NULL, $3); }
| IDENT '(' '-' NUMBER ')'                      { $$ = build_probe_component(ctx, $1, $3, $4); }
| IDENT '(' STRING ')'                          { $$ = build_probe_component(ctx, $1, NULL, $3); }
;

block:
  '{' stmt_list '}'                             { $$ = build_block(ctx, @1, $2); }
;

stmt_list:
  %empty                                        { $$ = NULL; }
| stmt_list stmt                                { $$ = AST_APPEND(struct stmt, $1, $2); }
;

stmt:
  block                                         { $$ = $1; }
| ';'                                           { $$ = build_stmt(ctx, STMT_EMPTY, @1); }
| EMBEDDED                                      { $$ = build_embedded_stmt(ctx, $1); }
| simple_stmt %prec LOWEST                      { $$ = $1; }
| simple_stmt ';'                               { $$ = $1; }
| KW_IF '(' expr ')' stmt %prec LOWEST          { $$ = build_if(ctx, @1, $3, $5, NULL); }
| KW_IF '(' expr ')' stmt KW_ELSE stmt          { $$ = build_if(ctx, @1, $3, $5, $7); }
| KW_WHILE '(' expr ')' stmt                    { $$ = build_while(ctx, @1, $3, $5); }
| KW_FOR '(' expr_opt ';' expr_opt ';' expr_opt ')' stmt
                                                { $$ = build_for(ctx, @1, $3, $5, $7, $9); }
| foreach_stmt                                  { $$ = $1; }
| KW_TRY block KW_CATCH block                   { $$ = build_try(ctx, @1, $2, NULL, $4); }
| KW_TRY block KW_CATCH '(' IDENT ')' block     { $$ = build_try(ctx, @1, $2, $5, $7); }
;

simple_stmt:
  expr %prec LOWEST                             { $$ = build_expr_stmt(ctx, STMT_EXPR, @1, $1); }
| KW_BREAK                                      { $$ = build_stmt(ctx, STMT_BREAK, @1); }
| KW_CONTINUE                                   { $$ = build_stmt(ctx, STMT_CONTINUE, @1); }
| KW_NEXT                                       { $$ = build_stmt(ctx, STMT_NEXT, @1); }
| KW_RETURN %prec LOWEST                        { $$ = build_expr_stmt(ctx, STMT_RETURN, @1, NULL); }
| KW_RETURN expr %prec LOWEST                   { $$ = build_expr_stmt(ctx, STMT_RETURN, @1, $2); }
| KW_DELETE expr %prec LOWEST                   { $$ = build_expr_stmt(ctx, STMT_DELETE, @1, $2); }
;

expr_opt:
  %empty                                        { $$ = NULL; }
| expr                                          { $$ = $1; }
;

foreach_stmt:
  KW_FOREACH '(' foreach_vars KW_IN IDENT stat_opt sort_opt ')' stmt
                                      { $$ = build_foreach(ctx, @1, $3, $5, NULL, $6, $7, NULL, $9); }
| KW_FOREACH '(' foreach_vars KW_IN IDENT stat_opt sort_opt KW_LIMIT expr ')' stmt
                                      { $$ = build_foreach(ctx, @1, $3, $5, NULL, $6, $7, $9, $11); }
| KW_FOREACH '(' foreach_vars KW_IN IDENT '[' index_list ']' stat_opt sort_opt ')' stmt
                                      { $$ = build_foreach(ctx, @1, $3, $5, $7, $9, $10, NULL, $12); }
| KW_FOREACH '(' foreach_vars KW_IN IDENT '[' index_list ']' stat_opt sort_opt KW_LIMIT expr ')' stmt
                                      { $$ = build_foreach(ctx, @1, $3, $5, $7, $9, $10, $12, $14); }
| KW_FOREACH '(' foreach_vars KW_IN AT_STAT '(' args ')' ')' stmt
                                      { $$ = build_foreach_hist(ctx, @1, $3, build_stat(ctx, $5, $7), NULL, $10); }
| KW_FOREACH '(' foreach_vars KW_IN AT_STAT '(' args ')' KW_LIMIT expr ')' stmt
                                      { $$ = build_foreach_hist(ctx, @1, $3, build_stat(ctx, $5, $7), $10, $12); }
;

foreach_vars:
  foreach_keys                                  { $$ = $1; }
| IDENT sort_opt '=' foreach_keys               { $$ = build_foreach_value(ctx, $4, $1, $2); }
;

foreach_keys:
  IDENT sort_opt                      { $$ = build_foreach_keys(ctx, @1, build_foreach_key(ctx, $1, $2), 0); }
| '[' foreach_key_list ']'                      { $$ = build_foreach_keys(ctx, @1, $2, 1); }
;

foreach_key_list:
  foreach_key                                   { $$ = $1; }
| foreach_key_list ',' foreach_key              { $$ = AST_APPEND(struct foreach_key, $1, $3); }
;

foreach_key:
  IDENT sort_opt                                { $$ = build_foreach_key(ctx, $1, $2); }
;

sort_opt:
  %empty                                        { $$ = NULL; }
| '+'                                           { $$ = $1; }
| '-'                                           { $$ = $1; }
;

stat_opt:
  %empty                                        { $$ = NULL; }
| AT_STAT                                       { $$ = $1; }
;

expr:
  expr assign_op expr %prec '='                 { $$ = build_assign(ctx, $2, $1, $3); }
| expr '?' expr ':' expr %prec '?'              { $$ = build_ternary(ctx, $2, $1, $3, $5); }
| expr OROR expr                                { $$ = build_binary(ctx, $2, $1, $3); }
| expr ANDAND expr                              { $$ = build_binary(ctx, $2, $1, $3); }
| expr '|' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '^' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '&' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr KW_IN IDENT                              { $$ = build_in(ctx, $2, $1, $3); }
| '[' index_list ']' KW_IN IDENT                { $$ = build_in(ctx, $4, $2, $5); }
| expr '<' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '>' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr LE expr                                  { $$ = build_binary(ctx, $2, $1, $3); }
| expr GE expr                                  { $$ = build_binary(ctx, $2, $1, $3); }
| expr EQ expr                                  { $$ = build_binary(ctx, $2, $1, $3); }
| expr NE expr                                  { $$ = build_binary(ctx, $2, $1, $3); }
| expr REGEX_MATCH expr                         { $$ = build_binary(ctx, $2, $1, $3); }
| expr REGEX_NOMATCH expr                       { $$ = build_binary(ctx, $2, $1, $3); }
| expr SHL expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr SHR expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '.' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '+' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '-' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '*' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '/' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| expr '%' expr                                 { $$ = build_binary(ctx, $2, $1, $3); }
| '-' expr %prec UNARY                          { $$ = build_unary(ctx, $1, $2); }
| '+' expr %prec UNARY                          { $$ = build_unary(ctx, $1, $2); }
| '!' expr %prec UNARY                          { $$ = build_unary(ctx, $1, $2); }
| '~' expr %prec UNARY                          { $$ = build_unary(ctx, $1, $2); }
| INC expr %prec UNARY                          { $$ = build_incdec(ctx, $1, 1, $2); }
| DEC expr %prec UNARY                          { $$ = build_incdec(ctx, $1, 1, $2); }
| lvalue INC                                    { $$ = build_incdec(ctx, $2, 0, $1); }
| lvalue DEC                                    { $$ = build_incdec(ctx, $2, 0, $1); }
| target_chain INC                              { $$ = build_incdec(ctx, $2, 0, $1); }
| target_chain DEC                              { $$ = build_incdec(ctx, $2, 0, $1); }
| '(' expr ')' INC                              { $$ = build_incdec(ctx, $4, 0, $2); }
| '(' expr ')' DEC                              { $$ = build_incdec(ctx, $4, 0, $2); }
| '(' expr ')' %prec LOWEST                     { $$ = $2; }
| NUMBER                                        { $$ = build_int(ctx, $1); }
| STRING                                        { $$ = build_string(ctx, $1); }
| lvalue %prec LOWEST                           { $$ = $1; }
| IDENT '(' args_opt ')' %prec LOWEST           { $$ = build_call(ctx, $1, $3); }
| target                                        { $$ = $1; }
| '&' target %prec UNARY                        { $$ = build_address_of(ctx, $1, $2); }
| autocast %prec LOWEST                         { $$ = $1; }
| autocast PRETTY                               { $$ = build_pretty(ctx, $1, $2); }
| '&' autocast %prec UNARY                      { $$ = build_address_of(ctx, $1, $2); }
| AT_STAT '(' args ')' %prec LOWEST             { $$ = build_stat(ctx, $1, $3); }
| AT_STAT '(' args ')' '[' expr ']'             { $$ = build_hist_bucket(ctx, build_stat(ctx, $1, $3), $6); }
| AT_ENTRY '(' expr ')'                         { $$ = build_at_operand(ctx, $1, EXPR_ENTRY, $3); }
| AT_DEFINED '(' expr ')'                       { $$ = build_at_operand(ctx, $1, EXPR_DEFINED, $3); }
;

/* Postfix ++/-- apply to these and to parenthesized expressions only (sema
 * wants a variable or an array element there, as SystemTap, whose parser
 * drops parentheses): `x++ ++y` is two statements, never (x++)++. */
lvalue:
  IDENT %prec LOWEST                            { $$ = build_ident(ctx, $1); }
| IDENT '[' index_list ']'                      { $$ = build_index(ctx, $1, $3); }
;

assign_op:
  '=' | ADD_ASSIGN | SUB_ASSIGN | MUL_ASSIGN | DIV_ASSIGN | MOD_ASSIGN | SHL_ASSIGN | SHR_ASSIGN
| AND_ASSIGN | XOR_ASSIGN | OR_ASSIGN | CONCAT_ASSIGN | AGGREGATE
;

target:
  target_chain %prec LOWEST                     { $$ = $1; }
| target_chain PRETTY                           { $$ = build_pretty(ctx, $1, $2); }
;

target_chain:
  TARGET                                        { $$ = build_target(ctx, $1); }
| AT_CAST '(' expr ',' STRING ')'               { $$ = build_cast(ctx, $1, $3, $5, NULL); }
| AT_CAST '(' expr ',' STRING ',' STRING ')'    { $$ = build_cast(ctx, $1, $3, $5, $7); }
| AT_VAR '(' STRING ')'                         { $$ = build_var(ctx, $1, $3, NULL); }
| AT_VAR '(' STRING ',' STRING ')'              { $$ = build_var(ctx, $1, $3, $5); }
| target_chain ARROW member_name                { $$ = build_member(ctx, $1, $3); }
| target_chain '[' expr ']'                     { $$ = build_subscript(ctx, $1, $2, $3); }
;

/* SystemTap's autocast: `->member` and `[index]` after a variable, an array
 * element, a call or a parenthesized expression, whose C type sema knows
 * from where the value came. `name[i]` stays an array element: `(name)[i]`
 * indexes a local's value. */
autocast:
  IDENT ARROW member_name                       { $$ = build_member(ctx, build_autocast(ctx, build_ident(ctx, $1), $2), $3); }
| IDENT '[' index_list ']' ARROW member_name
                        { $$ = build_member(ctx, build_autocast(ctx, build_index(ctx, $1, $3), $5), $6); }
| IDENT '(' args_opt ')' ARROW member_name
                        { $$ = build_member(ctx, build_autocast(ctx, build_call(ctx, $1, $3), $5), $6); }
| IDENT '(' args_opt ')' '[' expr ']'
                        { $$ = build_subscript(ctx, build_autocast(ctx, build_call(ctx, $1, $3), $5), $5, $6); }
| '(' expr ')' ARROW member_name                { $$ = build_member(ctx, build_autocast(ctx, $2, $4), $5); }
| '(' expr ')' '[' expr ']'                     { $$ = build_subscript(ctx, build_autocast(ctx, $2, $4), $4, $5); }
| autocast ARROW member_name                    { $$ = build_member(ctx, $1, $3); }
| autocast '[' expr ']'                         { $$ = build_subscript(ctx, $1, $2, $3); }
;

/* C member names may be script keywords: $task->next, $p->string. */
member_name:
  IDENT | KW_PROBE | KW_GLOBAL | KW_PRIVATE | KW_FUNCTION | KW_IF | KW_ELSE | KW_FOR | KW_FOREACH
| KW_IN | KW_LIMIT | KW_RETURN | KW_DELETE | KW_WHILE | KW_BREAK | KW_CONTINUE | KW_NEXT
| KW_STRING | KW_LONG | KW_TRY | KW_CATCH
;

args_opt:
  %empty                                        { $$ = NULL; }
| args                                          { $$ = $1; }
;

args:
  expr                                          { $$ = $1; }
| args ',' expr                                 { $$ = AST_APPEND(struct expr, $1, $3); }
;

index_list:
  index_item                                    { $$ = $1; }
| index_list ',' index_item                     { $$ = AST_APPEND(struct expr, $1, $3); }
;

index_item:
  expr                                          { $$ = $1; }
| '*'                                           { $$ = build_wildcard(ctx, $1); }
;

%%

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, struct parser_ctx *ctx)
{
    const struct token *tok = &ctx->tokens[ctx->pos];
    if (tok->kind != YYEOF)
        ctx->pos++;
    lval->tok = tok;
    *lloc = tok->span;
    return tok->kind;
}

const char *token_kind_name(int kind)
{
    const char *name = yysymbol_name(YYTRANSLATE(kind));
    return name;
}

static int expects(const yysymbol_kind_t *expected, int n, int kind)
{
    yysymbol_kind_t sym = YYTRANSLATE(kind);
    for (int i = 0; i < n; i++)
        if (expected[i] == sym)
            return 1;
    return 0;
}

/* Messages in the words of stap's hand-written parser: a missing closer is
 * named, otherwise the class of thing that was expected. */
static int yyreport_syntax_error(const yypcontext_t *yyctx, struct parser_ctx *ctx)
{
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(yyctx, expected, YYNTOKENS);
    if (n < 0)
        n = 0;
    struct span span = *yypcontext_location(yyctx);
    const char *msg = NULL;
    if (expects(expected, n, ')'))
        msg = "expected ')'";
    else if (expects(expected, n, ']'))
        msg = "expected ']'";
    else if (expects(expected, n, KW_PROBE))
        msg = "expected 'probe', 'global', 'private', 'function', or '%{'";
    else if (expects(expected, n, KW_IF) && expects(expected, n, KW_WHILE))
        msg = "expected statement";
    else if (expects(expected, n, NUMBER) && yypcontext_token(yyctx) == YYTRANSLATE(EMBEDDED))
        msg = "embedded C (%{ %}) as an expression is not available: tap runs scripts as BPF programs, with no "
              "guru mode";   /* SystemTap's guru mode: `if (%{ S_ISLNK(...) %})` */
    else if (expects(expected, n, NUMBER))
        msg = "expected expression";
    else if (expects(expected, n, IDENT) && n == 1)
        msg = "expected identifier";
    else if (expects(expected, n, ';') && expects(expected, n, '+'))
        msg = "expected ';'";    /* not the 30 operators that could continue the expression */
    else if (expects(expected, n, '{') && expects(expected, n, EMBEDDED))
        msg = "expected '{' or '%{'";
    else if (expects(expected, n, '{') && expects(expected, n, ','))
        msg = "expected '{'";    /* after a probe point: not '.', '?', '!', ',' or 'if' */
    if (msg) {
        diag_parse_error(ctx->diags, span, "%s", msg);
    } else {
        struct strbuf sb;
        strbuf_init(&sb);
        strbuf_puts(&sb, n == 1 ? "expected " : "expected one of ");
        for (int i = 0; i < n; i++)
            strbuf_printf(&sb, "%s%s", i ? ", " : "", yysymbol_name(expected[i]));
        diag_parse_error(ctx->diags, span, "%s", n ? sb.data : "syntax error");
        strbuf_free(&sb);
    }
    ctx->errors++;
    return 0;
}

/* Only "memory exhausted" comes here (bison's stack reached YYMAXDEPTH, 10000
 * entries); syntax errors go through the function above. */
static void yyerror(YYLTYPE *lloc, struct parser_ctx *ctx, const char *msg)
{
    if (strcmp(msg, "memory exhausted") == 0)
        msg = "too deeply nested: split the expression or statement";
    diag_parse_error(ctx->diags, *lloc, "%s", msg);
    ctx->errors++;
}

int parser_run(struct parser_ctx *ctx)
{
    return yyparse(ctx);
}
