"""``process(ProcessFunction)`` -> ``f2s.process(stream, fn)``, or over a DataFrame (a function
of each record alone, ``_side_outputs``) ``f2s_process.main_output(f2s_process.tagged(df, fn,
...))``: one pass of the user's ``process_element`` as a Python UDTF into a tagged frame (cached
and assigned to ``<name>_outputs`` when side outputs are read);
``KeyedStream.process(KeyedProcessFunction)`` -> ``f2s.keyed_process(keyed, fn, mode=...)``, or
``grouped.transformWithState(Processor(), schema, "Update", time mode)`` over a DataFrame.

On a keyed stream the program model plans as a DataFrame (``StreamFacts.frame``: a typed
source, ``key_by`` of a selector that is one Column, and a class ``_stateful.plan`` translates),
the user's class becomes a Spark ``StatefulProcessor`` (``rules/pyflink/_stateful.py`` says what
changes in it and what Spark does differently: NOTE F2S266 for the order of a key's rows unless
each key's records are one value, NOTE F2S267 for timers). Otherwise, on RDDs:

Why a shim: Spark has no keyed process function over batch data (``transformWithState`` is a
Structured Streaming operator, for unbounded sources). The user's class keeps its code; its
PyFlink base class, state descriptors, ``OutputTag`` and ``TimeDomain`` become the shim's
classes of the same names (``f2s.KeyedProcessFunction``...), and the shim runs it as Flink does
on a bounded input (``runtime/process.py``):

* each Spark partition stands for a parallel instance: ``open(runtime_context)`` once, then
  ``process_element(value, ctx)`` on its elements in stream order (keyed: the elements are
  hash-partitioned by key, their stream positions taken before the shuffle), ``close()``;
* keyed state (``runtime_context.get_state/get_list_state/get_map_state/get_reducing_state/
  get_aggregating_state`` with their descriptors) is scoped to the current key;
* timers (``ctx.timer_service()``): in STREAMING mode the watermark is ``Long.MIN_VALUE`` while
  elements are processed and every event-time timer fires at the end of the input, in time
  order (timers registered from ``on_timer`` too), which is what Flink 2.3 does on a small
  bounded input (NOTE F2S231: its periodic watermark could fire them earlier on a long one);
  processing-time timers fire when due, those pending at the end do not fire (NOTE F2S232).
  In BATCH mode every timer of a key fires after the key's elements, as on Flink;
* results are what ``process_element``/``on_timer`` yield; ``yield tag, value`` with an
  ``OutputTag`` goes to a side output (``get_side_output``).

The runtime mode comes from the module's ``set_runtime_mode`` (a TODO when it cannot be told).
A lambda or def passed to ``process`` is not a process function: left with a TODO.
"""

import libcst as cst

from flink2spark.transpiler.visitors import nodes

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import program, runtime_mode, spark_head, spark_program
from flink2spark.rules.pyflink._process import (
    decode_of,
    flag,
    function_class,
    input_order_note,
    instance_note,
    mode_or_todo,
    shim_call,
    timer_notes,
    unbounded_todo,
)
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.process", "KeyedStream.process"],
    exact=False,
    summary="KeyedStream.process(KeyedProcessFunction) over a DataFrame -> groupBy(key).transformWithState(StatefulProcessor); process(ProcessFunction) over a DataFrame -> a Python UDTF into a tagged frame (side outputs: its filters); on RDDs: process(ProcessFunction) -> f2s.process(rdd, fn), KeyedStream.process -> f2s.keyed_process(keyed, fn, mode) (state, timers, side outputs)",
    codes=(M.PF_TWS_ORDER, M.PF_TWS_TIMERS, M.PF_TWS_MAP_ORDER, M.PF_TWS_TTL, M.PF_PROCESS, M.PF_INSTANCES, M.PF_RUNTIME_MODE, M.PF_EVENT_TIMERS, M.PF_PROCESSING_TIMERS, M.PF_STATE_TTL, M.PF_INPUT_ORDER, M.PF_STREAMING_PROCESS, M.PF_STREAMING_TIMERS, M.PF_MICRO_BATCH),
    examples=[
        Example(  # a typed stream planned as a DataFrame: the class becomes a StatefulProcessor
            program(
                "\n\nclass Count(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n\n"
                "    def process_element(self, value, ctx):\n"
                "        n = (self.n.value() or 0) + 1\n"
                "        self.n.update(n)\n"
                "        yield ctx.get_current_key(), n\n\n\n"
                "words = env.from_collection(['a', 'b', 'a'], type_info=Types.STRING())\n"
                "words.key_by(lambda w: w).process(Count(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeyedProcessFunction\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from pyspark.sql import Row, SparkSession\n"
            "from pyspark.sql.streaming import StatefulProcessor\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n\nclass Count(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            '        self.n = handle.getValueState("n", "value int")\n\n'
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for (value,) in rows:\n"
            "            n = (self.state_value(self.n) or 0) + 1\n"
            "            self.n.update((n,))\n"
            "            yield Row(f0=key[0], f1=n)\n"
            "\n"
            "    @staticmethod\n"
            "    def state_value(state):\n"
            '        """The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none."""\n'
            "        found = state.get()\n"
            "        return None if found is None else found[0]\n\n\n"
            'words = env.createDataFrame(["a", "b", "a"], "string")\n'
            'words.groupBy("value").transformWithState(\n'
            '    Count(), "f0 string, f1 int", "Update", "None"\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # processing-time timers: Spark's, the batch's clock (NOTE F2S232)
            program(
                "\n\nclass Remind(KeyedProcessFunction):\n"
                "    def process_element(self, value, ctx):\n"
                "        ctx.timer_service().register_processing_time_timer(ctx.timer_service().current_processing_time() + 60_000)\n\n"
                "    def on_timer(self, timestamp, ctx):\n"
                "        yield ctx.get_current_key()\n\n\n"
                "words = env.from_collection(['a', 'b'], type_info=Types.STRING())\n"
                "words.key_by(lambda w: w).process(Remind(), output_type=Types.STRING()).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeyedProcessFunction\n",
            ),
            "from pyspark.sql import Row, SparkSession\n"
            "from pyspark.sql.streaming import StatefulProcessor\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n\nclass Remind(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            "        self.handle = handle\n\n"
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for (value,) in rows:\n"
            "            self.handle.registerTimer(\n"
            "                timerValues.getCurrentProcessingTimeInMs() + 60_000\n"
            "            )\n"
            "        yield from ()\n\n"
            "    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):\n"
            "        yield Row(value=key[0])\n\n\n"
            'words = env.createDataFrame(["a", "b"], "string")\n'
            "# NOTE(flink2spark): F2S232 Remind: its processing-time timers fire after their key's rows when due by the clock of"
            " the batch (timerValues.getCurrentProcessingTimeInMs(), one time per batch); Flink fires them when the wall clock"
            " passes them while the job runs, and none still pending at the end of a bounded input\n"
            'words.groupBy("value").transformWithState(\n'
            '    Remind(), "value string", "Update", "ProcessingTime"\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # MapState, ListState.update (an empty list clears: put_list); NOTE F2S262, the keys' order is printed
            program(
                "\n\nclass Tags(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.seen = runtime_context.get_map_state(MapStateDescriptor('seen', Types.STRING(), Types.INT()))\n"
                "        self.last = runtime_context.get_list_state(ListStateDescriptor('last', Types.STRING()))\n\n"
                "    def process_element(self, value, ctx):\n"
                "        self.seen.put(value, (self.seen.get(value) or 0) + 1)\n"
                "        recent = [w for w in self.last.get() if w != value]\n"
                "        self.last.update(recent + [value])\n"
                "        yield ','.join(self.seen.keys())\n\n\n"
                "words = env.from_collection(['a', 'bb', 'cc'], type_info=Types.STRING())\n"
                "words.key_by(lambda w: len(w)).process(Tags(), output_type=Types.STRING()).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeyedProcessFunction\n"
                "from pyflink.datastream.state import ListStateDescriptor, MapStateDescriptor\n",
            ),
            (
                'from pyspark.sql import Row, SparkSession, functions as F\n'
                'from pyspark.sql.streaming import StatefulProcessor\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                '\n'
                '\n'
                'class Tags(StatefulProcessor):\n'
                '    def init(self, handle):\n'
                '        self.seen = handle.getMapState("seen", "key string", "value int")\n'
                '        self.last = handle.getListState("last", "value string")\n'
                '\n'
                '    def handleInputRows(self, key, rows, timerValues):\n'
                '        for (value,) in rows:\n'
                '            self.seen.updateValue(\n'
                '                (value,), (((self.seen.getValue((value,)) or (None,))[0] or 0) + 1,)\n'
                '            )\n'
                '            recent = [w for w in [v for (v,) in self.last.get()] if w != value]\n'
                '            self.put_list(self.last, [(v,) for v in recent + [value]])\n'
                '            yield Row(value=",".join([k for (k,) in self.seen.keys()]))\n'
                '\n'
                '    @staticmethod\n'
                '    def put_list(state, values):\n'
                '        """Flink\'s ListState.update(values): an empty list clears the state (Spark\'s put() takes no empty list)."""\n'
                '        if values:\n'
                '            state.put(values)\n'
                '        else:\n'
                '            state.clear()\n'
                '\n'
                '\n'
                'words = env.createDataFrame(["a", "bb", "cc"], "string")\n'
                "# NOTE(flink2spark): F2S266 Tags: handleInputRows gets each key's rows at once, in no set order (Flink: one by one, in arrival order); results that depend on the order of a key's elements may differ\n"
                "# NOTE(flink2spark): F2S262 Tags: a MapState's keys()/values()/items() come in Spark's order (Flink: its state backend's); the results read that order\n"
                'words.groupBy(F.char_length(F.col("value"))).transformWithState(\n'
                '    Tags(), "value string", "Update", "None"\n'
                ').show(2147483647, truncate=False)\n'
            ),
        ),
        Example(  # ReducingState with the user's ReduceFunction, a TTL (NOTE F2S263: processing time)
            program(
                "\n\nclass Largest(ReduceFunction):\n"
                "    def reduce(self, a, b):\n"
                "        return max(a, b)\n\n\n"
                "class Top(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        top = ReducingStateDescriptor('top', Largest(), Types.INT())\n"
                "        top.enable_time_to_live(StateTtlConfig.new_builder(Time.hours(1)).build())\n"
                "        self.top = runtime_context.get_reducing_state(top)\n\n"
                "    def process_element(self, value, ctx):\n"
                "        self.top.add(value[1])\n"
                "        yield value[0], self.top.get()\n\n\n"
                "scores = env.from_collection([('a', 3), ('a', 5)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "scores.key_by(lambda s: s[0]).process(Top(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()\n",
                imports="from pyflink.common import Time, Types\nfrom pyflink.datastream import KeyedProcessFunction, ReduceFunction\n"
                "from pyflink.datastream.state import ReducingStateDescriptor, StateTtlConfig\n",
            ),
            (
                'from pyspark.sql import Row, SparkSession\n'
                'from pyspark.sql.streaming import StatefulProcessor\n'
                '\n'
                'env = SparkSession.builder.getOrCreate()\n'
                '\n'
                '\n'
                'class Largest:\n'
                '    def reduce(self, a, b):\n'
                '        return max(a, b)\n'
                '\n'
                '\n'
                'class Top(StatefulProcessor):\n'
                '    def init(self, handle):\n'
                '        self.top = handle.getValueState("top", "value int", ttlDurationMs=3_600_000)\n'
                '\n'
                '    def handleInputRows(self, key, rows, timerValues):\n'
                '        for value in rows:\n'
                '            self.reduce_into(self.top, Largest(), value[1])\n'
                '            yield Row(f0=value[0], f1=self.state_value(self.top))\n'
                '\n'
                '    @staticmethod\n'
                '    def state_value(state):\n'
                '        """The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none."""\n'
                '        found = state.get()\n'
                '        return None if found is None else found[0]\n'
                '\n'
                '    @staticmethod\n'
                '    def reduce_into(state, function, value):\n'
                '        """Flink\'s ReducingState.add(value): the state\'s value reduced with value (value alone when it has none)."""\n'
                '        found = state.get()\n'
                '        state.update((value if found is None else function.reduce(found[0], value),))\n'
                '\n'
                '\n'
                'scores = env.createDataFrame([("a", 3), ("a", 5)], "f0 STRING, f1 INT")\n'
                "# NOTE(flink2spark): F2S266 Top: handleInputRows gets each key's rows at once, in no set order (Flink: one by one, in arrival order); results that depend on the order of a key's elements may differ\n"
                "# NOTE(flink2spark): F2S263 Top: self.top expires 3600000 ms after its last write, as Flink's default TTL (OnCreateAndWrite, NeverReturnExpired), by Spark's processing time of the micro-batch (one time for a batch DataFrame); Flink's by the time of each access: results differ only when the job runs longer than the TTL\n"
                'scores.groupBy("f0").transformWithState(\n'
                '    Top(), "f0 string, f1 int", "Update", "ProcessingTime"\n'
                ').show(2147483647, truncate=False)\n'
            ),
        ),
        Example(  # event-time timers: processing-time timers of a batch query (NOTE F2S267); order NOTE F2S266
            program(
                "\n\nclass Remind(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.total = runtime_context.get_state(ValueStateDescriptor('total', Types.LONG()))\n\n"
                "    def process_element(self, order, ctx):\n"
                "        self.total.update((self.total.value() or 0) + order[1])\n"
                "        ctx.timer_service().register_event_time_timer(1000)\n\n"
                "    def on_timer(self, timestamp, ctx):\n"
                "        yield Row(customer=ctx.get_current_key(), total=self.total.value())\n\n\n"
                "orders = env.from_collection([('ann', 12), ('bob', 3)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "totals = orders.key_by(lambda o: o[0]).process(\n"
                "    Remind(), output_type=Types.ROW_NAMED(['customer', 'total'], [Types.STRING(), Types.LONG()]))\n"
                "totals.print()\n",
                imports="from pyflink.common import Row, Types\nfrom pyflink.datastream import KeyedProcessFunction\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from pyspark.sql import Row, SparkSession\n"
            "from pyspark.sql.streaming import StatefulProcessor\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n\nclass Remind(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            "        self.handle = handle\n"
            '        self.total = handle.getValueState("total", "value bigint")\n\n'
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for order in rows:\n"
            "            self.total.update(((self.state_value(self.total) or 0) + order[1],))\n"
            "            self.handle.registerTimer(1000)\n"
            "        yield from ()\n\n"
            "    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):\n"
            "        yield Row(customer=key[0], total=self.state_value(self.total))\n"
            "\n"
            "    @staticmethod\n"
            "    def state_value(state):\n"
            '        """The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none."""\n'
            "        found = state.get()\n"
            "        return None if found is None else found[0]\n\n\n"
            'orders = env.createDataFrame([("ann", 12), ("bob", 3)], "f0 STRING, f1 INT")\n'
            "# NOTE(flink2spark): F2S266 Remind: handleInputRows gets each key's rows at once, in no set order (Flink: one by"
            " one, in arrival order); results that depend on the order of a key's elements may differ\n"
            "# NOTE(flink2spark): F2S267 Remind: its event-time timers are processing-time timers of a batch query: they fire"
            " after their key's rows when due by the job's clock (Flink: all at the end of the input); a timer set in the"
            " future does not fire\n"
            'totals = orders.groupBy("f0").transformWithState(\n'
            '    Remind(), "customer string, total bigint", "Update", "ProcessingTime"\n'
            ")\n"
            "totals.show(2147483647, truncate=False)\n",
        ),
        Example(  # a computed key: groupBy() of its Column (python_columns: exact)
            program(
                "\n\nclass Lengths(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.seen = runtime_context.get_state(ValueStateDescriptor('seen', Types.BOOLEAN()))\n\n"
                "    def process_element(self, word, ctx):\n"
                "        if not self.seen.value():\n"
                "            self.seen.update(True)\n"
                "            yield ctx.get_current_key()\n\n\n"
                "words = env.from_collection(['to', 'be', 'or', 'not'], type_info=Types.STRING())\n"
                "words.key_by(lambda w: len(w)).process(Lengths(), output_type=Types.INT()).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeyedProcessFunction\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from pyspark.sql import Row, SparkSession, functions as F\n"
            "from pyspark.sql.streaming import StatefulProcessor\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n\nclass Lengths(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            '        self.seen = handle.getValueState("seen", "value boolean")\n\n'
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for (word,) in rows:\n"
            "            if not self.state_value(self.seen):\n"
            "                self.seen.update((True,))\n"
            "                yield Row(value=key[0])\n"
            "\n"
            "    @staticmethod\n"
            "    def state_value(state):\n"
            '        """The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none."""\n'
            "        found = state.get()\n"
            "        return None if found is None else found[0]\n\n\n"
            'words = env.createDataFrame(["to", "be", "or", "not"], "string")\n'
            "# NOTE(flink2spark): F2S266 Lengths: handleInputRows gets each key's rows at once, in no set order (Flink: one by"
            " one, in arrival order); results that depend on the order of a key's elements may differ\n"
            'words.groupBy(F.char_length(F.col("value"))).transformWithState(\n'
            '    Lengths(), "value int", "Update", "None"\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # no type_info (pickled records): an RDD, the shim's keyed_process
            program(
                "\n\nclass Count(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n\n"
                "    def process_element(self, value, ctx):\n"
                "        n = (self.n.value() or 0) + 1\n"
                "        self.n.update(n)\n"
                "        yield ctx.get_current_key(), n\n\n\n"
                "counts = env.from_collection(['a', 'b', 'a']).key_by(lambda w: w).process(Count())\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeyedProcessFunction\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            spark_program(
                "\n\nclass Count(f2s.KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(\n"
                '            f2s.ValueStateDescriptor("n", f2s.Types.INT())\n'
                "        )\n\n"
                "    def process_element(self, value, ctx):\n"
                "        n = (self.n.value() or 0) + 1\n"
                "        self.n.update(n)\n"
                "        yield ctx.get_current_key(), n\n\n\n"
                "counts = f2s.keyed_process(\n"
                '    env.sparkContext.parallelize(["a", "b", "a"]).keyBy(lambda w: w), Count()\n'
                ")\n",
                shim=True,
                rdd='the source `.from_collection()` at line 19 has no type_info (no DataFrame schema)',
            ),
        ),
        Example(  # BATCH: ctx.timestamp() is the assigner's field, a key's rows sorted by it, the watermark Long.MIN_VALUE
            program(
                "\n\nclass At(TimestampAssigner):\n"
                "    def extract_timestamp(self, value, record_timestamp):\n"
                "        return value[1]\n\n\n"
                "class First(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.seen = runtime_context.get_state(ValueStateDescriptor('seen', Types.BOOLEAN()))\n\n"
                "    def process_element(self, visit, ctx):\n"
                "        if not self.seen.value():\n"
                "            self.seen.update(True)\n"
                "            yield visit[0], ctx.timestamp(), ctx.timer_service().current_watermark()\n\n\n"
                "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
                "visits = env.from_collection([('ann', 300), ('ann', 100)], type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))\n"
                "visits.assign_timestamps_and_watermarks(\n"
                "    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At())\n"
                ").key_by(lambda v: v[0]).process(First(), output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])).print()\n",
                imports="from pyflink.common import Types, WatermarkStrategy\n"
                "from pyflink.common.watermark_strategy import TimestampAssigner\n"
                "from pyflink.datastream import KeyedProcessFunction, RuntimeExecutionMode\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from pyspark.sql import Row, SparkSession\n"
            "from pyspark.sql.streaming import StatefulProcessor\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "\n\nclass First(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            '        self.seen = handle.getValueState("seen", "value boolean")\n\n'
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for visit in sorted(rows, key=lambda row: row.f1):\n"
            "            if not self.state_value(self.seen):\n"
            "                self.seen.update((True,))\n"
            "                yield Row(f0=visit[0], f1=visit[1], f2=-9223372036854775808)\n\n"
            "    @staticmethod\n"
            "    def state_value(state):\n"
            '        """The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none."""\n'
            "        found = state.get()\n"
            "        return None if found is None else found[0]\n\n\n"
            'visits = env.createDataFrame([("ann", 300), ("ann", 100)], "f0 STRING, f1 BIGINT")\n'
            "# NOTE(flink2spark): F2S266 First: handleInputRows sorts each key's rows by their timestamp (f1), as Flink's"
            " BATCH mode does; rows of one key with the same timestamp come in no set order (Flink: its sort's order)\n"
            'visits.groupBy("f0").transformWithState(\n'
            '    First(), "f0 string, f1 bigint, f2 bigint", "Update", "None"\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # STREAMING: the watermark is Flink's periodic one, which the program does not fix: the shim's keyed_process
            program(
                "\n\nclass At(TimestampAssigner):\n"
                "    def extract_timestamp(self, value, record_timestamp):\n"
                "        return value[1]\n\n\n"
                "class Late(KeyedProcessFunction):\n"
                "    def process_element(self, visit, ctx):\n"
                "        yield visit[0], ctx.timer_service().current_watermark()\n\n\n"
                "visits = env.from_collection([('ann', 300)], type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))\n"
                "visits.assign_timestamps_and_watermarks(\n"
                "    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At())\n"
                ").key_by(lambda v: v[0]).process(Late(), output_type=Types.TUPLE([Types.STRING(), Types.LONG()])).print()\n",
                imports="from pyflink.common import Types, WatermarkStrategy\n"
                "from pyflink.common.watermark_strategy import TimestampAssigner\n"
                "from pyflink.datastream import KeyedProcessFunction, RuntimeExecutionMode\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
spark_program(
                "\n\nclass At:\n"
                "    def extract_timestamp(self, value, record_timestamp):\n"
                "        return value[1]\n\n\n"
                "class Late(f2s.KeyedProcessFunction):\n"
                "    def process_element(self, visit, ctx):\n"
                "        yield visit[0], ctx.timer_service().current_watermark()\n\n\n"
                'visits = env.sparkContext.parallelize([("ann", 300)])\n'
                "for record in (\n"
                "    f2s.keyed_process(\n"
                "        f2s.windows.keyed(\n"
                "            f2s.windows.with_timestamps(visits, At().extract_timestamp), lambda v: v[0]\n"
                "        ),\n"
                "        Late(),\n"
                "        timestamped=True,\n"
                "    )\n"
                "    .values()\n"
                "    .collect()\n"
                "):\n"
                "    print(record)\n",
                shim=True,
                rdd='`.process()` at line 21 has no DataFrame form',
            ),
        ),
        Example(  # an unbounded (Kafka) stream: transformWithState keeps the keyed state
            program(
                "\n\nclass Count(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n\n"
                "    def process_element(self, value, ctx):\n"
                "        self.n.update((self.n.value() or 0) + 1)\n"
                "        yield ctx.get_current_key(), self.n.value()\n\n\n"
                "source = KafkaSource.builder().set_bootstrap_servers('kafka:9092').set_topics('words')"
                ".set_value_only_deserializer(SimpleStringSchema()).build()\n"
                "words = env.from_source(source, WatermarkStrategy.no_watermarks(), 'words')\n"
                "counts = words.key_by(lambda w: w).process(Count())\n",
                imports="from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy\n"
                "from pyflink.datastream import KeyedProcessFunction\n"
                "from pyflink.datastream.connectors.kafka import KafkaSource\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n"
            "from pyspark.sql import SparkSession, functions as F\n"
            + spark_head('`.process()` at line 21 has no DataFrame form on an unbounded stream (there: map/filter/flat_map/union, event-time windows of built-in aggregates keyed by a field, rolling sum/min/max/reduce of fields keyed by a field, print and Kafka sinks)')
            + "\n\nclass Count(f2s.KeyedProcessFunction):\n"
            "    def open(self, runtime_context):\n"
            "        self.n = runtime_context.get_state(\n"
            '            f2s.ValueStateDescriptor("n", f2s.Types.INT())\n'
            "        )\n\n"
            "    def process_element(self, value, ctx):\n"
            "        self.n.update((self.n.value() or 0) + 1)\n"
            "        yield ctx.get_current_key(), self.n.value()\n\n\n"
            "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            "words = f2s_stream.micro_batches(\n"
            '    env.readStream.format("kafka")\n'
            '    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "words")\n'
            '    .option("startingOffsets", "earliest")\n'
            "    .load()\n"
            '    .select(F.col("value").cast("string").alias("value")),\n'
            "    f2s.Types.STRING(),\n"
            ")\n"
            "# NOTE(flink2spark): F2S259 " + K.PROCESS_NOTE + "\n"
            "counts = f2s_stream.keyed_process(words.keyBy(lambda w: w), Count())\n",
        ),
        Example(  # a typed stream planned as a DataFrame, no side output read: a Python UDTF's results (runtime/frame_process.py)
            program(
                "\n\nclass Half(ProcessFunction):\n"
                "    def process_element(self, n, ctx):\n"
                "        if n % 2 == 0:\n"
                "            yield n // 2\n\n\n"
                "env.from_collection([4, 7], type_info=Types.INT()).process(Half(), Types.INT()).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import ProcessFunction\n",
            ),
            "from flink2spark.runtime import frame_process as f2s_process\n"
            "from flink2spark.runtime.frame_process import ProcessFunction\n"
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n\n\n"
            "class Half(ProcessFunction):\n"
            "    def process_element(self, n, ctx):\n"
            "        if n % 2 == 0:\n"
            "            yield n // 2\n\n\n"
            "f2s_process.main_output(\n"
            '    f2s_process.tagged(env.createDataFrame([4, 7], "int"), Half(), "value", "value INT")\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(
            program(
                "\n\nclass Parse(ProcessFunction):\n"
                "    def process_element(self, line, ctx):\n"
                "        if line.isdigit():\n"
                "            yield int(line)\n"
                "        else:\n"
                "            yield BAD, line\n\n\n"
                "BAD = OutputTag('bad', Types.STRING())\n"
                "numbers = env.from_collection(['1', 'x']).process(Parse(), Types.INT())\n"
                "bad = numbers.get_side_output(BAD)\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import OutputTag, ProcessFunction\n",
            ),
            spark_program(
                "\n\nclass Parse(f2s.ProcessFunction):\n"
                "    def process_element(self, line, ctx):\n"
                "        if line.isdigit():\n"
                "            yield int(line)\n"
                "        else:\n"
                "            yield BAD, line\n\n\n"
                'BAD = f2s.OutputTag("bad", f2s.Types.STRING())\n'
                'numbers = f2s.process(env.sparkContext.parallelize(["1", "x"]), Parse())\n'
                "bad = f2s.side_output(numbers, BAD)\n",
                shim=True,
                rdd='the source `.from_collection()` at line 17 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=[
        "import multiprocessing\n\np = multiprocessing.Process(target=print)\np.process = lambda f: f\np.process(len)\n",
        # a class of the same shape that is not Flink's, and a StatefulProcessor already (a converted file)
        "class Count:\n    def open(self, runtime_context):\n        self.n = runtime_context.get_state('n')\n\n"
        "    def process_element(self, value, ctx):\n        yield ctx.get_current_key(), value\n\n\n"
        "rows = {}\nrows.key_by = lambda k: rows\nrows.process = lambda f: list(f.process_element(1, None))\n",
        # a map and a reducer of the same shape that are not Flink's state
        "class Stock:\n    def open(self, runtime_context):\n        self.m = runtime_context.get_map_state('m')\n"
        "        self.r = runtime_context.get_reducing_state('r')\n\n"
        "    def process_element(self, value, ctx):\n        self.m.put(value, 1)\n        self.r.add(value)\n"
        "        yield self.m.contains(value), self.r.get(), list(self.m.items())\n",
        "from pyspark.sql import Row\nfrom pyspark.sql.streaming import StatefulProcessor\n\n\n"
        "class Count(StatefulProcessor):\n    def init(self, handle):\n        self.n = handle.getValueState('n', 'value int')\n\n"
        "    def handleInputRows(self, key, rows, timerValues):\n        for (value,) in rows:\n"
        "            yield Row(f0=key[0], f1=value)\n",
    ],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    keyed = ctx.site.receiver_type == P.KEYED
    kinds = ("KeyedProcessFunction", "ProcessFunction") if keyed else ("ProcessFunction",)
    known = function_class(ctx, seg, kinds, "KeyedStream.process()" if keyed else "process()")
    if known is None:
        return ctx.todo_left()
    cls, _, instance = known
    receiver = seg.original.func.value  # type: ignore[attr-defined]
    if keyed and facts(ctx.resolver, receiver).frame is not None:
        return stateful_processor(ctx, seg, instance)
    if not keyed and facts(ctx.resolver, receiver).frame is not None:
        return tagged_frame(ctx, seg, instance)
    if keyed and facts(ctx.resolver, receiver).micro_batches:
        if runtime_mode(ctx) == "streaming" and K.streaming_process_class(ctx.resolver, seg.original) is not None:
            if K.rolling_key_by(ctx.resolver, receiver) is None:
                return ctx.keep("a process function on an unbounded keyed stream: the key_by() it reads has the TODO")
            ctx.note(M.PF_STREAMING_PROCESS, K.PROCESS_NOTE)
            args = [cst.Arg(ctx.site.receiver), cst.Arg(instance)]
            timers = K.streaming_timers(ctx.resolver, seg.original)
            if timers is not None:
                ctx.note(M.PF_STREAMING_TIMERS, K.TIMERS_NOTE)
                args.append(cst.Arg(cst.SimpleString(f'"{timers}"'), keyword=cst.Name("timers")))
            return cst.Call(func=K.shim(ctx, "keyed_process"), args=args)
    if not keyed and facts(ctx.resolver, receiver).micro_batches and K.micro_batch_process_class(ctx.resolver, seg.original) is not None:
        ctx.note(M.PF_MICRO_BATCH, K.MICRO_BATCH_PROCESS_NOTE)
        return shim_call(ctx, "process", [ctx.site.receiver, instance], {"decode": decode_of(ctx)})
    if unbounded_todo(ctx, receiver, "process()"):
        return ctx.todo_left()
    stamped = facts(ctx.resolver, seg.original.func.value).timestamped  # type: ignore[attr-defined]
    if facts(ctx.resolver, seg.original.func.value).from_union:  # type: ignore[attr-defined]
        input_order_note(ctx, cls, "a union of streams")
    if not keyed:
        one = instance_note(ctx, cls)
        keywords = {"timestamped": flag(stamped), "decode": decode_of(ctx), "parallelism": one}
        return shim_call(ctx, "process", [ctx.site.receiver, instance], keywords)
    mode = mode_or_todo(ctx, "KeyedStream.process()")
    if mode is None:
        return ctx.todo_left()
    timer_notes(ctx, cls, mode)
    keywords = {"mode": "batch" if mode == "batch" else None, "timestamped": flag(stamped), "decode": decode_of(ctx)}
    return shim_call(ctx, "keyed_process", [ctx.site.receiver, instance], keywords)



def stateful_processor(ctx, seg, instance):
    """``keyed.process(F(), output_type=T)`` over a frame (the program model's plan, ``_stateful.plan``)
    -> ``grouped.transformWithState(F(), "<T's schema>", "Update", "<time mode>")``, the class
    ``F`` rewritten as a StatefulProcessor."""
    from flink2spark.rules.pyflink._event_windows import TIMESTAMP_COLUMN, windows_read_stamp
    from flink2spark.rules.pyflink._stateful import SEQUENCE, group_by, plan, stamped_by
    from flink2spark.rules.pyflink._streams import graph

    receiver = seg.original.func.value
    g, shape = graph(ctx.resolver), facts(ctx.resolver, receiver).frame
    found = plan(g, seg.original, shape)
    p = found.processor
    refused = replace_processor(ctx, found.cls, p)
    if refused is not None:
        return refused
    name = found.cls.name.value
    if found.ordered and p.sorted_by is not None:
        ctx.note(
            M.PF_TWS_ORDER,
            f"{name}: handleInputRows sorts each key's rows by their timestamp ({p.sorted_by}), as Flink's BATCH mode"
            " does; rows of one key with the same timestamp come in no set order (Flink: its sort's order)",
        )
    elif found.one:
        ctx.note(
            M.PF_TWS_SOURCE_ORDER,
            f"{name}: each key's rows reach handleInputRows in the source's order (one partition: coalesce(1)), as"
            " Flink's at parallelism 1; Spark keeps that order (one shuffle block, a stable sort by key) without promising it",
        )
    elif found.ordered:
        ctx.note(
            M.PF_TWS_ORDER,
            f"{name}: handleInputRows gets each key's rows at once, in no set order (Flink: one by one, in arrival"
            " order); results that depend on the order of a key's elements may differ",
        )
    processor_notes(ctx, name, p)
    key = group_by(g, seg.original, shape)
    if key.startswith("F."):
        I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
    stamped = stamped_by(g, seg.original)
    drop = f".drop({TIMESTAMP_COLUMN!r})" if stamped is not None and windows_read_stamp(g, stamped) else ""  # a window's column
    if found.one:
        drop += ".coalesce(1)"  # the source's order, in one partition
    elif found.order == "carry":  # each row's place in the source's order (its partitions in order, each's rows in order)
        I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
        drop += '.withColumn("%s", F.monotonically_increasing_id())' % SEQUENCE
    return ctx.expr(
        '{df}%s.groupBy(%s).transformWithState({fn}, "%s", "Update", "%s")' % (drop, key, p.output_schema, p.time_mode),
        df=ctx.site.receiver,
        fn=instance,
    )


def replace_processor(ctx, cls, p):
    """The user's class ``cls`` replaced by the StatefulProcessor ``p`` (its states' function classes
    lose their PyFlink bases), the names it uses imported; a TODO when it cannot be (else None)."""
    if not ctx.replace_class(cls, p.cls):
        return ctx.todo(M.PF_PROCESS, f"{cls.name.value}: the class could not be rewritten as a StatefulProcessor; convert it by hand")
    for function in p.function_classes:  # a state's AggregateFunction: a plain class (the helpers call its methods)
        if any(ctx.resolver.qualified_name(b.value) in P.FUNCTION_CLASSES for b in function.bases):
            continue  # a ReduceFunction: its base goes as every converted function class's does (transpiler/functions.py)
        plain = function.with_changes(bases=[], lpar=cst.MaybeSentinel.DEFAULT, rpar=cst.MaybeSentinel.DEFAULT)
        if not ctx.replace_class(function, plain):
            return ctx.todo(M.PF_PROCESS, f"{function.name.value}: the class could not lose its PyFlink base; convert it by hand")
    ctx.import_name("pyspark.sql.streaming", "StatefulProcessor")
    if any(n.value == "Row" for n in nodes(p.cls, cst.Name)):
        ctx.import_name("pyspark.sql", "Row")
    return None


def processor_notes(ctx, name: str, p) -> None:
    """The NOTEs of a StatefulProcessor ``p`` (``_stateful.Processor``) of the class ``name``:
    its timers, a MapState's iteration order, state TTLs."""
    if p.processing_time:
        ctx.note(
            M.PF_PROCESSING_TIMERS,
            f"{name}: its processing-time timers fire after their key's rows when due by the clock of the batch"
            " (timerValues.getCurrentProcessingTimeInMs(), one time per batch); Flink fires them when the wall clock"
            " passes them while the job runs, and none still pending at the end of a bounded input",
        )
    elif p.timers:
        batch = (
            "; in BATCH mode Flink 2.3 fired the last key's timer once per registration when the key registered it"
            " several times (seen on fixture keyed_state_sensor_highest's first version), Spark once"
            if runtime_mode(ctx) != "streaming"
            else ""
        )
        ctx.note(
            M.PF_TWS_TIMERS,
            f"{name}: its event-time timers are processing-time timers of a batch query: they fire after their"
            " key's rows when due by the job's clock (Flink: all at the end of the input); a timer set in the future"
            " does not fire" + batch,
        )
    if p.map_order:
        ctx.note(
            M.PF_TWS_MAP_ORDER,
            f"{name}: a MapState's keys()/values()/items() come in Spark's order (Flink: its state backend's); the"
            " results read that order",
        )
    for attr, ms in p.ttl.items():
        ctx.note(
            M.PF_TWS_TTL,
            f"{name}: self.{attr} expires {ms} ms after its last write, as Flink's default TTL (OnCreateAndWrite,"
            " NeverReturnExpired), by Spark's processing time of the micro-batch (one time for a batch DataFrame);"
            " Flink's by the time of each access: results differ only when the job runs longer than the TTL",
        )


def tagged_frame(ctx, seg, instance):
    """``stream.process(F(), output_type=T)`` over a frame (the program model's plan,
    ``_side_outputs.side_plan``) -> ``f2s_process.main_output(f2s_process.tagged(...))``; when
    side outputs are read, ``name = ...`` becomes ``name_outputs = f2s_process.tagged(...).cache()``
    (the function runs once) then ``name = f2s_process.main_output(name_outputs)``."""
    from flink2spark.rules.pyflink._side_outputs import schema, side_plan
    from flink2spark.rules.pyflink._streams import graph

    receiver = seg.original.func.value
    found = side_plan(graph(ctx.resolver), seg.original, facts(ctx.resolver, receiver).frame)
    shape = facts(ctx.resolver, receiver).frame

    I.need(ctx.conv.codemod, "flink2spark.runtime", "frame_process", "f2s_process")
    sides = "{%s}" % ", ".join(f"{name!r}: {schema(s)!r}" for _, name, s in found.tags)
    tagged = ctx.expr(
        "f2s_process.tagged({df}, {fn}, %r, %r%s)" % (shape.kind, schema(found.output), f", {sides}" if found.tags else ""),
        df=ctx.expr("{df}.coalesce(1)", df=ctx.site.receiver) if found.one else ctx.site.receiver,
        fn=instance,
    )
    if found.outputs_name is None:
        return ctx.expr("f2s_process.main_output({tagged})", tagged=tagged)
    return split_outputs(ctx, seg, found.outputs_name, tagged)


def split_outputs(ctx, seg, outputs: str, tagged):
    """``name = <process>`` whose side outputs are read -> ``<outputs> = <tagged>.cache()`` (the
    function runs once) then ``name = f2s_process.main_output(<outputs>)``."""
    I.need(ctx.conv.codemod, "flink2spark.runtime", "frame_process", "f2s_process")
    line = ctx.resolver.parent(ctx.resolver.parent(seg.original))

    def split(updated):
        first = updated.with_changes(
            body=[cst.Assign([cst.AssignTarget(cst.Name(outputs))], ctx.expr("{t}.cache()", t=tagged))],
            leading_lines=updated.leading_lines,
        )
        second = updated.with_changes(leading_lines=[])
        return cst.FlattenSentinel([first, second])

    if not ctx.rewrite_statement(line, split):
        return ctx.todo(M.PF_PROCESS, "process(): its statement is rewritten already; convert it by hand")
    return ctx.expr("f2s_process.main_output(%s)" % outputs)
