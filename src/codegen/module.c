/* The LLVM module: target setup, debug info (BTF comes from it), the order
 * in which the files generate it (codegen_emit), and emitting the BPF object
 * to memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "codegen/codegen_internal.h"
#include "base/disk_cache.h"
#include "codegen/object_cache.h"

static void diagnostic_handler(LLVMDiagnosticInfoRef info, void *opaque)
{
    struct codegen *cg = opaque;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSError)
        return;
    char *text = LLVMGetDiagInfoDescription(info);
    diag_plain_error(cg->diags, "LLVM could not compile the script: %s", text);
    LLVMDisposeMessage(text);
}

static int setup_target(struct codegen *cg)
{
    LLVMInitializeBPFTargetInfo();
    LLVMInitializeBPFTarget();
    LLVMInitializeBPFTargetMC();
    LLVMInitializeBPFAsmPrinter();
    LLVMTargetRef target;
    char *error = NULL;
    if (LLVMGetTargetFromTriple("bpfel", &target, &error)) {
        diag_plain_error(cg->diags, "LLVM has no BPF target: %s", error);
        LLVMDisposeMessage(error);
        return -1;
    }
    /* v4 has signed division and sign-extending moves and loads (kernels >=
     * 6.6); older kernels get v3 or v2, and a program that must have v4's
     * signed division gets a libcall LLVM reports. */
    snprintf(cg->cpu, sizeof(cg->cpu), "v%d", cg->options->bpf_isa ? cg->options->bpf_isa : 4);
    cg->program->bpf_isa = cg->options->bpf_isa ? cg->options->bpf_isa : 4;
    cg->program->kernel_release = cg->options->kernel_release ? strdup(cg->options->kernel_release) : NULL;
    cg->program->kernel_build_id = cg->options->kernel_build_id ? strdup(cg->options->kernel_build_id) : NULL;
    cg->machine = LLVMCreateTargetMachine(target, "bpfel", cg->cpu, "", LLVMCodeGenLevelDefault,
                                          LLVMRelocDefault, LLVMCodeModelDefault);
    cg->layout = LLVMCreateTargetDataLayout(cg->machine);
    /* Triple and data layout before any IR, or 64-bit accesses get split. */
    LLVMSetTarget(cg->module, "bpfel");
    LLVMSetModuleDataLayout(cg->module, cg->layout);
    return 0;
}

static void setup_debug_info(struct codegen *cg)
{
    const struct source_file *file = cg->script->main_file;
    const char *name = file ? file->name : "<input>";
    cg->di = LLVMCreateDIBuilder(cg->module);
    cg->di_file = LLVMDIBuilderCreateFile(cg->di, name, strlen(name), ".", 1);
    cg->di_unit = LLVMDIBuilderCreateCompileUnit(
        cg->di, LLVMDWARFSourceLanguageC, cg->di_file, "tap", 3, 0, "", 0, 0, "", 0,
        LLVMDWARFEmissionFull, 0, 0, 0, "", 0, "", 0);
    cg->di_long = LLVMDIBuilderCreateBasicType(cg->di, "long", 4, 64, 0x05 /* DW_ATE_signed */, 0);
    cg->di_int = LLVMDIBuilderCreateBasicType(cg->di, "int", 3, 32, 0x05, 0);
    cg->di_char = LLVMDIBuilderCreateBasicType(cg->di, "char", 4, 8, 0x06 /* signed_char */, 0);
    cg->di_ptr = LLVMDIBuilderCreatePointerType(cg->di, cg->di_char, 64, 0, 0, "", 0);
    LLVMAddModuleFlag(cg->module, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(cg->context), 3, 0)));
    LLVMAddModuleFlag(cg->module, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(cg->context), 4, 0)));
}

static void define_license(struct codegen *cg)
{
    LLVMValueRef text = LLVMConstStringInContext(cg->context, "GPL", 3, 0);
    LLVMValueRef license = LLVMAddGlobal(cg->module, LLVMTypeOf(text), "_license");
    LLVMSetInitializer(license, text);
    LLVMSetSection(license, "license");
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A cached object for this very module skips the passes and the backend. */
static int load_cached(struct codegen *cg, const struct object_cache_key *key)
{
    void *object;
    size_t size;
    if (disk_cache_load(cg->options->cache_dir, key->name, &object, &size) != 0)
        return -1;
    cg->program->object = object;
    cg->program->object_size = size;
    if (cg->options->cached_object) {
        size_t length = strlen(cg->options->cache_dir) + strlen(key->name) + 2;
        char *path = arena_alloc(cg->arena, length);
        snprintf(path, length, "%s/%s", cg->options->cache_dir, key->name);
        *cg->options->cached_object = path;
    }
    return 0;
}

static int optimize_and_emit(struct codegen *cg, double started)
{
    LLVMDIBuilderFinalize(cg->di);
    /* -p3 prints the optimised IR, so it runs the passes */
    struct object_cache_key key;
    int cacheable = cg->options->cache_dir && !cg->options->ir_out && object_cache_key(cg->module, cg->cpu, &key) == 0;
    if (cacheable && load_cached(cg, &key) == 0) {
        if (cg->options->translate_ms)
            *cg->options->translate_ms = now_ms() - started;
        return 0;
    }
    char *error = NULL;
    if (LLVMVerifyModule(cg->module, LLVMReturnStatusAction, &error)) {
        diag_plain_error(cg->diags, "internal error: invalid LLVM module: %s", error);
        LLVMDisposeMessage(error);
        return -1;
    }
    LLVMDisposeMessage(error);
    LLVMPassBuilderOptionsRef pass_options = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopUnrolling(pass_options, 0);
    LLVMPassBuilderOptionsSetLoopVectorization(pass_options, 0);
    LLVMPassBuilderOptionsSetSLPVectorization(pass_options, 0);
    /* O1, not O2: the same code for the bench's probes (per-hit cost), ~13%
     * fewer instructions to compile a uprobe script (bench/RESULTS.md). */
    LLVMErrorRef pass_error = LLVMRunPasses(cg->module, "default<O1>", cg->machine, pass_options);
    LLVMDisposePassBuilderOptions(pass_options);
    if (pass_error) {
        char *message = LLVMGetErrorMessage(pass_error);
        diag_plain_error(cg->diags, "internal error: LLVM passes failed: %s", message);
        LLVMDisposeErrorMessage(message);
        return -1;
    }
    if (cg->options->ir_out) {
        char *ir = LLVMPrintModuleToString(cg->module);
        fputs(ir, cg->options->ir_out);
        LLVMDisposeMessage(ir);
    }
    double emit_started = now_ms();
    if (cg->options->translate_ms)
        *cg->options->translate_ms = emit_started - started;
    LLVMMemoryBufferRef buffer;
    if (LLVMTargetMachineEmitToMemoryBuffer(cg->machine, cg->module, LLVMObjectFile, &error, &buffer)) {
        diag_plain_error(cg->diags, "LLVM could not emit the BPF object: %s", error);
        LLVMDisposeMessage(error);
        return -1;
    }
    if (cg->diags->error_count) {   /* reported by the diagnostic handler */
        LLVMDisposeMemoryBuffer(buffer);
        return -1;
    }
    size_t size = LLVMGetBufferSize(buffer);
    cg->program->object = malloc(size);
    memcpy(cg->program->object, LLVMGetBufferStart(buffer), size);
    cg->program->object_size = size;
    LLVMDisposeMemoryBuffer(buffer);
    if (cacheable)
        disk_cache_store(cg->options->cache_dir, key.name, cg->program->object, size);
    if (cg->options->object_ms)
        *cg->options->object_ms = now_ms() - emit_started;
    return 0;
}

static void dispose(struct codegen *cg)
{
    if (cg->di)
        LLVMDisposeDIBuilder(cg->di);
    if (cg->builder)
        LLVMDisposeBuilder(cg->builder);
    if (cg->layout)
        LLVMDisposeTargetData(cg->layout);
    if (cg->machine)
        LLVMDisposeTargetMachine(cg->machine);
    if (cg->module)
        LLVMDisposeModule(cg->module);
    if (cg->context)
        LLVMContextDispose(cg->context);
}

struct program *codegen_emit(struct arena *arena, struct diags *diags, const struct script *script,
                             const struct codegen_options *options)
{
    double started = now_ms();
    struct codegen cg = {.arena = arena, .diags = diags, .options = options, .script = script,
                         .expr = cg_expr, .stmt = cg_stmt};
    cg.program = calloc(1, sizeof(*cg.program));
    cg.string_size = options->string_size;
    cg.program->string_size = options->string_size;
    cg.context = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(cg.context, diagnostic_handler, &cg);
    cg.module = LLVMModuleCreateWithNameInContext("tap", cg.context);
    cg.builder = LLVMCreateBuilderInContext(cg.context);
    cg.i1 = LLVMInt1TypeInContext(cg.context);
    cg.i8 = LLVMInt8TypeInContext(cg.context);
    cg.i32 = LLVMInt32TypeInContext(cg.context);
    cg.i64 = LLVMInt64TypeInContext(cg.context);
    cg.ptr = LLVMPointerTypeInContext(cg.context, 0);
    cg.void_type = LLVMVoidTypeInContext(cg.context);
    cg.scratch_size = SCRATCH_HEADER_SIZE;
    int ok = setup_target(&cg) == 0;
    if (ok) {
        setup_debug_info(&cg);
        define_license(&cg);
        cg_define_data(&cg);
        cg_define_maps(&cg);
        cg_define_timing(&cg);
        cg_define_arrays(&cg);
        cg_define_string_functions(&cg);
        if (cg_script_has_try(script))
            cg_enable_catch(&cg);
        cg_define_user_functions(&cg);
        cg_define_probes(&cg);
        cg_target_drop_unread_copies(&cg);
        cg_finish_data(&cg);
        cg_finish_arrays(&cg);
        cg.program->hist_elision = options->hist_elision < 0 ? 2 : options->hist_elision;
        cg.program->max_errors = options->max_errors;
        cg_embed_metadata(&cg);
        ok = !diags->error_count && optimize_and_emit(&cg, started) == 0;
    }
    dispose(&cg);
    if (!ok) {
        program_free(cg.program);
        return NULL;
    }
    return cg.program;
}
