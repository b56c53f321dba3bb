"""Only rewritten statements are formatted; untouched code keeps its bytes (transpiler/formatting.py)."""

from __future__ import annotations

import ast

from flink2spark.transpiler.engine import convert_source

HEAD = "from flink.plan.Environment import get_environment\n\n"


def _convert(source: str) -> str:
    result = convert_source(source, "job.py")
    assert result.output is not None, result.markers
    return result.output


def test_untouched_statements_keep_their_bytes():
    untouched = [
        "WORDS = ['a','b',   'c']  # the user's own spacing\n",
        "def helper(x):  return {'k': [x,x]}\n",
        "LONG = ('aaaaaaaaaaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'cccccccccccccccccccccccccccccccc')\n",
    ]
    source = HEAD + "".join(untouched) + "env = get_environment()\nenv.from_elements(1, 2).output()\nenv.execute(local=True)\n"
    out = _convert(source)
    for line in untouched:
        assert line in out
    # the rewritten statements are black's
    assert "env = SparkSession.builder.getOrCreate()\n" in out
    assert "get_environment" not in out


def test_inside_a_function_only_the_rewritten_statements_are_formatted():
    source = HEAD + (
        "def main():\n"
        "    words = ['x','y']\n"
        "    env = get_environment()\n"
        "    env.from_elements( 'a' ).output()\n"
        "    env.execute(local=True)\n"
        "\n"
        "\n"
        "if __name__ == '__main__':\n"
        "    main()\n"
    )
    out = _convert(source)
    assert "    words = ['x','y']\n" in out
    assert "if __name__ == '__main__':\n    main()\n" in out
    assert "( 'a' )" not in out  # the rewritten statement went through black
    assert '"a"' in out


def test_an_untouched_line_with_semicolons_keeps_its_bytes():
    """A line of several statements that the conversion does not touch, in the function of the
    job, kept its trailing semicolon and spacing only once dropping unused Flink imports stopped
    rebuilding every line (it used to come out as two black-formatted lines)."""
    line = "    limit = {'a': [1]};  other = 2;\n"
    source = (
        "from pyflink.datastream import StreamExecutionEnvironment\n\n\ndef main():\n" + line
        + "    env = StreamExecutionEnvironment.get_execution_environment()\n"
        + "    env.from_collection([[1], [2]]).print()\n    env.execute('job')\n"
    )
    out = _convert(source)
    assert line in out
    assert "    for record in env.sparkContext.parallelize([[1], [2]]).collect():\n        print(record)\n" in out


def test_a_file_indented_otherwise_is_formatted_by_whole_top_level_statements():
    source = HEAD + (
        "def main():\n"
        "  words = ['x','y']\n"
        "  env = get_environment()\n"
        "  env.from_elements(1).output()\n"
        "  env.execute(local=True)\n"
        "\n"
        "\n"
        "def other():\n"
        "  return ['u','v']\n"
    )
    out = _convert(source)
    ast.parse(out)
    assert '    words = ["x", "y"]\n' in out  # main() was rewritten: formatted whole
    assert "def other():\n  return ['u','v']\n" in out  # untouched


def test_multiline_strings_in_rewritten_statements_keep_their_value():
    text = "line one\n      indented two\nthree"
    source = HEAD + (
        "def main():\n"
        "    env = get_environment()\n"
        f"    env.from_elements('''{text}''').output()\n"
        "    env.execute(local=True)\n"
    )
    out = _convert(source)
    found = [n.value for n in ast.walk(ast.parse(out)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    assert text in found


def test_crlf_files_stay_crlf():
    source = (HEAD + "X = [1,2]\nenv = get_environment()\nenv.from_elements(1).output()\nenv.execute(local=True)\n").replace("\n", "\r\n")
    out = _convert(source)
    assert "X = [1,2]\r\n" in out
    assert out.count("\n") == out.count("\r\n")


def test_a_module_docstring_keeps_a_blank_line_before_rewritten_imports():
    source = '"""A job."""\n\n' + HEAD + "env = get_environment()\nenv.from_elements(1).output()\nenv.execute(local=True)\n"
    out = _convert(source)
    assert out.startswith('"""A job."""\n\nfrom ')


def test_converting_again_changes_nothing():
    source = HEAD + "def main():\n    xs = [1,2]\n    env = get_environment()\n    env.from_elements(*xs).output()\n    env.execute(local=True)\n"
    out = _convert(source)
    assert convert_source(out, "job.py").output == out
